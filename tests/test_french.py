"""The detector of English left in French pages and mails (``tests.french``): it finds English,
and leaves French, code, addresses and names alone."""

from __future__ import annotations

from tests.french import english_in, text_of, typography_in


def test_the_detector_finds_english_sentences():
    assert english_in("<p>Your move in <b>Final Act</b>.</p>") == ["Your move in … ."]
    assert english_in("Deadline: in 3 hours") == ["Deadline:", "in 3 hours"]
    assert english_in("<p>Deadline: vendredi 27 novembre (in 23 heures)</p>")
    assert english_in("<p>Votre tour</p><button>Submit</button>") == ["Submit"]
    assert english_in("Your move") == ["Your move"]
    assert english_in("Subject line\nVotre tour.\nThe board is below.") == ["The board is below."]
    assert english_in("Unité AT 1 : en e4.\nHOW TO ORDER BY EMAIL") == ["HOW TO ORDER BY EMAIL"]
    assert english_in("Europe/Paris is the place.") == ["is the place."]
    assert english_in("Each unit moves, and the tank fires.") == [
        "Each unit moves, and the tank fires."]
    # What assistive technologies read aloud is read.
    assert english_in('<svg aria-label="the board"><rect/></svg><p>x</p>') == ["the board"]
    assert english_in('<img alt="Your tank"> <input placeholder="Write your orders">') == [
        "Your tank", "Write your orders"]
    # A bot's kind as the engine keys it, an English result, dates in English abbreviations.
    assert english_in("<p>Delta (robot (random))</p>") == ["Delta (robot (random))"]
    assert english_in("<p>Delta won</p>") == ["Delta won"]
    assert english_in("<li>échéance dim 29 Nov, 14:05 UTC</li>")
    assert english_in("It’s yours, don’t wait.") == ["It’s yours, don’t wait."]


def test_the_detector_leaves_french_code_and_names_alone():
    assert english_in("<p>À vous de jouer dans <b>Final Act</b>, avant vendredi.</p>") == []
    assert english_in("<p>Échéance : vendredi 27 novembre (dans 23 heures).</p>"
                      "<p>La partie se termine par un match nul.</p>") == []
    assert english_in("<li>échéance dimanche 29 novembre, 14:05 UTC</li>") == []
    assert english_in("Le but du jeu : une case, six chars, un score.") == []
    # Accented letters belong to their word ("notées" holds no "not").
    assert english_in("Huit directions (notées comme sur une boussole).") == []
    # Code, attributes not read aloud, scripts, form fields, links and addresses, typed orders.
    hidden = ('<p data-x="with the" class="the">Ordres</p><pre>1A FL turn fire e7 # the one'
              '</pre><code>the</code><script>var the = 1;</script><textarea>give 3 to C5'
              '</textarea><a href="/the/way/">Lien</a> Écrivez give 3 to C5 ou paid by 1B. '
              'Voir https://example.test/the/ ou alice@example.test')
    assert english_in(hidden) == []
    assert english_in('<p>Place 1 <code>move c3 to d4</code> <var>the</var> <kbd>the</kbd> '
                      '<a href="/matches/1/your-orders/">ordres</a></p>'
                      "<script>if (turn) { submit(); }</script>") == []
    assert english_in("<p>Tirez : <code>C fire e7</code>, <pre>move the tank</pre></p>") == []
    assert english_in("<p>Écrivez « move the tank to e4 » sous la ligne.</p>") == []
    # Names: marked translate="no", the games', the caller's.
    assert english_in('<p>La <span translate="no">Red Cross and you</span></p>') == []
    assert english_in("Comment jouer à Tank Game V4") == []
    assert english_in("<p>Partie « The Last Match » d'Alice</p>") == []
    assert english_in("<p>Partie de The Last Match</p>", names=["The Last Match"]) == []
    assert english_in("<p>Partie de The Last Match</p>") == ["Partie de The Last Match"]
    # Codes are no words: a line of one or two capitals, hex receipts, time zones' names.
    assert english_in("<li>AT</li><li>AT1 A</li><li>Reçu 06697be2b903bb12a7705060</li>") == []
    assert english_in("<option>America/Port of Spain</option><option>Europe/Isle of Man"
                      "</option>") == []
    # French words that English shares, and the compass as French abbreviates it.
    assert english_in("Un match, un show, des mails ; vers le NO ou le no, page 2.") == []
    assert english_in("Vainqueur : North.") == []
    # The order grammar, as typed in any language, and the site's name.
    assert english_in("Écrivez stay, F, FL ; reaction CHAR hold ; fire HEX ; end moving.") == []
    assert english_in("<title>Accueil · Tank Portal</title>") == []
    assert english_in("Points cardinaux : ne, no, se, so.") == []
    assert english_in("trajet (ou path none) ; mur CASE (les mots anglais wall, bomb)") == []
    # A calendar's property names, a module's dotted path.
    assert english_in("LAST-MODIFIED:20261129T064846Z\nDESCRIPTION:Partie 3") == []
    assert english_in("La raison de son échéance (games.services.timing).") == []


def test_text_of_reads_what_a_person_sees():
    assert text_of("<p>Un&nbsp;<b>char</b></p><script>x</script>").split() == ["Un", "char"]
    assert text_of("Texte brut < 3") == "Texte brut < 3"


def test_the_detector_finds_what_french_typography_does_not_write():
    assert typography_in("<p><b>Alpha (alice)</b>: en attente</p>")
    assert typography_in("<p>Acheter un PA:</p>")
    assert typography_in('<time datetime="x">dim 29 Nov, 14:05 UTC</time>')
    assert not typography_in("<p>Alpha (alice) : en attente, à 14:05 (https://x.test/a:b)</p>"
                             "<p>Échéance : dimanche 29 novembre, 14:05 UTC</p>"
                             "<code>move: c3</code>")
    # A square's label, read aloud, is no typography (its words are read by ``english_in``).
    assert not typography_in('<rect aria-label="a1: vide"/>')
