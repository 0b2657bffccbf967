"""Leagues in Chromium, by keyboard: an organiser creates a league and starts its first season,
reads the divisions and reaches the archive (in English); a player does the same in French.
axe runs on every league page."""

import pytest

from competitions import services
from competitions.models import League, LeagueMember
from portal.accounts.services import profile_update
from tests.axe import axe_violations
from tests.browser import BROWSER_MARKS, browser_page, log_in
from tests.french import english_in, text_of
from tests.portal.builders import make_user

pytestmark = BROWSER_MARKS

page = browser_page(viewport={"width": 1280, "height": 1000}, timeout=20_000)

FOCUSED = "document.activeElement"


def tab_to(page, selector: str, presses: int = 200) -> None:
    """Press Tab until the focused element matches ``selector`` (fails if it never does)."""
    for _ in range(presses):
        page.keyboard.press("Tab")
        if page.evaluate(f"{FOCUSED} && {FOCUSED}.matches({selector!r})"):
            return
    raise AssertionError(f"Tab never reached {selector}")


def play_one(league, division: int) -> None:
    """The division's first match played to its end (the first seat wins), and what the
    worker does after it: the "match ended" signal scores it for the standings."""
    from competitions.models import LeagueMatch
    from durable.models import OutboxEvent
    from durable.outbox import outbox_dispatch
    from games.models import Match
    from games.services import orders_submit, phase_resolve

    lm = LeagueMatch.objects.filter(division__season__league=league,
                                    division__number=division).order_by("pk").first()
    match = Match.objects.get(pk=lm.match_id)
    while match.status == Match.Status.ACTIVE:  # the default target: 3 points
        for seat in match.seats.order_by("number"):
            orders_submit(match_id=match.pk, seat_number=seat.number, user=seat.user,
                          phase_number=match.phase_number,
                          data={"number": 5 if seat.number == 1 else 1}, source="web")
        phase_resolve(match_id=match.pk, phase_number=match.phase_number)
        match.refresh_from_db()
    outbox_dispatch(ids=list(OutboxEvent.objects.filter(done_at__isnull=True)
                             .values_list("pk", flat=True)))


def main_text(page) -> str:
    html = page.content()
    return text_of(html[html.index("<main"):html.index("</main>")])


@pytest.mark.long
def test_an_organiser_and_a_player_use_a_league_by_keyboard(page, new_page, axe_script):
    owner = make_user("organiser")
    club = services.club_create(by=owner, name="Keyboard club")
    players = [make_user(f"player{n}") for n in range(1, 6)]
    for user in players:
        services.club_join_by_token(token=club.invite_token, user=user)
    found: list[str] = []

    log_in(page, "organiser")
    page.goto(page.base + f"/clubs/{club.slug}/")
    tab_to(page, "#new-league")
    page.keyboard.press("Enter")
    page.wait_for_selector("#league-explained")
    found += axe_violations(page, axe_script, where="the league form")
    tab_to(page, "input[name=name]")
    page.keyboard.type("Thursday league")
    tab_to(page, "select[name=game]")
    page.select_option("select[name=game]", "toy-duel")
    tab_to(page, "input[name=division_size]")
    page.keyboard.press("Control+A")
    page.keyboard.type("3")
    tab_to(page, "button[type=submit]")
    page.keyboard.press("Enter")
    page.wait_for_selector("#no-season")
    league = League.objects.get(name="Thursday league")
    assert league.division_size == 3 and league.club == club
    for user in players:
        services.league_join(league_id=league.pk, user=user)

    page.reload()
    tab_to(page, "#league-organise button")
    page.keyboard.press("Enter")
    page.wait_for_selector("#current-season")
    text = main_text(page)
    assert "Season 1 (running)" in text and "Division 1" in text and "Division 2" in text
    assert "Relegation place" not in text  # no match played yet: nobody is in a place
    play_one(league, division=1)
    page.reload()
    text = main_text(page)
    assert "Relegation place" in text and "Promotion place" not in text  # only division 1
    found += axe_violations(page, axe_script, where="the league page as its organiser")
    tab_to(page, "#current-season h3 a")
    page.keyboard.press("Enter")
    page.wait_for_selector("#places-help")
    assert "Division 1" in page.inner_text("h1")
    found += axe_violations(page, axe_script, where="a division's page")
    tab_to(page, "a[href$='/archive/']")
    page.keyboard.press("Enter")
    page.wait_for_selector("section.season")
    assert "In the relegation places" in main_text(page)
    found += axe_violations(page, axe_script, where="the archive")

    amelie = players[0]
    profile_update(user=amelie, language="fr")
    french = new_page(viewport={"width": 1280, "height": 1000})
    log_in(french, amelie.username)
    french.goto(french.base + f"/clubs/{club.slug}/")
    tab_to(french, f"a[href='/leagues/{league.pk}/']")
    french.keyboard.press("Enter")
    french.wait_for_selector("#current-season")
    names = [u.username for u in (owner, *players)] + ["Thursday league", "Keyboard club"]
    text = main_text(french)
    assert "Saison 1 (en cours)" in text and "Place de relégation" in text
    assert english_in(text, names=names) == []
    found += axe_violations(french, axe_script, where="the league page in French")
    tab_to(french, "#archive-link")
    french.keyboard.press("Enter")
    french.wait_for_selector("section.season")
    text = main_text(french)
    assert "toutes les saisons" in text and english_in(text, names=names) == []
    tab_to(french, "a[href$='/divisions/2/']")
    french.keyboard.press("Enter")
    french.wait_for_selector("#places-help")
    assert english_in(main_text(french), names=names) == []
    # A player leaves by keyboard from the league page.
    french.goto(french.base + f"/leagues/{league.pk}/")
    tab_to(french, f"form[action='/leagues/{league.pk}/leave/'] button")
    french.keyboard.press("Enter")
    french.wait_for_selector(f"form[action='/leagues/{league.pk}/join/']")
    assert LeagueMember.objects.get(league=league, user=amelie).left_at is not None
    assert found == [], "\n".join(found)
