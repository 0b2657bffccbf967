"""A player registers for a tournament and reads the standings, in a real browser (Debian's
Chromium driven by Playwright, as tests/portal/test_browser.py does)."""

from competitions import services
from competitions.models import Entry, Pairing
from durable.models import OutboxEvent
from durable.outbox import outbox_dispatch
from games.models import Match
from games.services import orders_submit, phase_resolve
from tests.browser import BROWSER_MARKS, browser_page, log_in
from tests.portal.builders import make_user

pytestmark = BROWSER_MARKS

page = browser_page()


def test_a_player_registers_and_reads_the_standings(page):
    owner, alice, bob = make_user("owner"), make_user("alice"), make_user("bob")
    club = services.club_create(by=owner, name="Browser club")
    for user in (alice, bob):
        services.club_join_by_token(token=club.invite_token, user=user)
    tournament = services.tournament_create(by=owner, club_id=club.pk, name="Browser Swiss",
                                            game="toy-duel", format="swiss",
                                            options={"target": 1}, rounds_planned=1)
    services.tournament_register(tournament_id=tournament.pk, user=bob)

    log_in(page, "alice")
    page.click("text=Clubs")
    page.click("text=Browser club")
    page.click("text=Browser Swiss")
    page.click("button:has-text('Register')")
    page.wait_for_selector("text=You are registered")
    assert Entry.objects.filter(tournament=tournament, user=alice).exists()

    services.tournament_start(tournament_id=tournament.pk, by=owner)
    (pairing,) = Pairing.objects.filter(round__tournament=tournament)
    match = Match.objects.get(pk=pairing.match_id)
    seats = {s.user_id: s.number for s in match.seats.all()}
    for user, number in ((alice, 5), (bob, 2)):
        orders_submit(match_id=match.pk, seat_number=seats[user.pk], user=user, phase_number=1,
                      data={"number": number}, source="web")
    phase_resolve(match_id=match.pk, phase_number=1)
    # What the worker does after that commit: carry out the promised "match ended" signal.
    outbox_dispatch(ids=list(OutboxEvent.objects.filter(done_at__isnull=True)
                             .values_list("pk", flat=True)))

    page.reload()
    assert page.inner_text("#tournament-status") == "Finished"
    first_row = page.locator("#standings tbody tr").first.inner_text()
    assert "alice" in first_row and "1" in first_row
    page.click("text=Crosstable")
    # (all_inner_texts does not wait: read the rows once the crosstable's page has loaded,
    # not the standings page the click leaves; a loaded machine showed the difference)
    page.locator("#crosstable tbody tr").first.wait_for()
    cells = page.locator("#crosstable tbody tr").all_inner_texts()
    assert any("alice" in row and "+" in row for row in cells)
    assert any("bob" in row and "-" in row for row in cells)


def test_an_organiser_tries_a_format_with_two_bots(page):
    owner = make_user("organiser")
    club = services.club_create(by=owner, name="Try-out club")

    log_in(page, "organiser")
    page.goto(page.base + f"/clubs/{club.slug}/")
    assert "A tournament is a fixed event" in page.inner_text("#club-explained")
    page.click("text=New tournament")
    page.fill("input[name=name]", "Bot round robin")
    page.select_option("select[name=game]", "toy-duel")
    page.select_option("select[name=format]", "round_robin")
    page.click("button:has-text('Create the tournament')")
    page.wait_for_selector("#tournament-bots")
    for _ in range(2):
        page.select_option("#tournament-bots select[name=bot]", "random")
        page.click("button:has-text('Enter the bot')")
        page.wait_for_load_state()
    assert "random bot 2" in page.inner_text("#tournament-bots")
    page.click("button:has-text('Register')")
    page.wait_for_selector("text=You are registered")
    page.click("button:has-text('Start the tournament')")
    page.wait_for_selector("#round-heading")
    assert page.inner_text("#tournament-status") == "Running"
    round_one = page.inner_text("section[aria-labelledby=round-heading]")
    assert "Round 1" in round_one and "random bot" in round_one
    tournament = Entry.objects.get(user=owner).tournament
    (board,) = Pairing.objects.filter(round__tournament=tournament).exclude(match=None)
    page.click(f"a[href='/matches/{board.match_id}/']")
    page.wait_for_url(f"**/matches/{board.match_id}/")
