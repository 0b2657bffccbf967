"""The votes panel in a real browser, used with the keyboard alone: a proposal made, confirmed
and answered by the other player on their own page, the page then showing the result in
words; a concession opened, ticked, confirmed and sent from the keyboard."""

from games.models import Match
from tests.browser import BROWSER_MARKS, log_in
from tests.portal.builders import duel, make_user

pytestmark = BROWSER_MARKS


def confirming(page) -> list[str]:
    """Accept every confirmation the page asks for (HTMX's hx-confirm); their texts."""
    asked: list[str] = []

    def accept(dialog) -> None:
        asked.append(dialog.message)
        dialog.accept()

    page.on("dialog", accept)
    return asked


def tab_to(page, selector: str, limit: int = 80) -> None:
    """Press Tab until ``selector`` has the focus (as a keyboard user reaches it)."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate(f"document.activeElement.matches({selector!r})"):
            return
    raise AssertionError(f"Tab never reached {selector}")


def test_a_draw_is_proposed_and_accepted_with_the_keyboard(new_page):
    alice, bob = make_user("alice"), make_user("bob")
    match = duel(alice, bob)
    first, second = new_page(), new_page()
    asked_first, asked_second = confirming(first), confirming(second)
    log_in(first, "alice")
    first.goto(f"{first.base}/matches/{match.pk}/")
    first.focus("#votes-heading")
    tab_to(first, "#votes input[name=kind][value=draw]")
    tab_to(first, "#votes input[name=secret]")
    first.keyboard.press("Space")  # a secret ballot
    tab_to(first, "#votes fieldset button[type=submit]")
    first.keyboard.press("Enter")
    first.wait_for_selector("#votes >> text=You proposed a draw")
    # The keyboard stays in the panel, on the answer (not back at the top of the page).
    first.wait_for_function("document.activeElement.closest('#votes') !== null")
    assert "You proposed a draw" in first.evaluate("document.activeElement.textContent")
    assert "Send this proposal" in asked_first[0]
    assert "You proposed it." in first.inner_text("#votes")
    assert "1 yes of 2; 1 still to vote." in first.inner_text("#votes")

    log_in(second, "bob")
    second.goto(f"{second.base}/matches/{match.pk}/")
    panel = second.inner_text("#votes")
    assert "Proposed by a player." in panel and "alice" not in panel  # secret: no name
    second.focus("#votes-heading")
    tab_to(second, "#votes .vote form:first-of-type button[type=submit]")
    second.keyboard.press("Enter")
    second.wait_for_selector("#result-ending")
    assert "Vote yes to a draw?" in asked_second[0]
    assert second.inner_text("#result-ending") == "Drawn by agreement of North, South."
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED


def test_a_concession_is_confirmed_and_sent_with_the_keyboard(new_page):
    alice, bob = make_user("alice"), make_user("bob")
    match = duel(alice, bob)
    page = new_page()
    asked = confirming(page)
    log_in(page, "bob")
    page.goto(f"{page.base}/matches/{match.pk}/")
    page.focus("#votes-heading")
    tab_to(page, "#votes summary")
    page.keyboard.press("Enter")  # opens "Concede…"
    tab_to(page, "#votes input[name=confirm]")
    page.keyboard.press("Space")
    tab_to(page, "#votes details button[type=submit]")
    page.keyboard.press("Enter")
    page.wait_for_selector("#result-ending")
    assert "cannot be undone" in asked[0]
    assert page.inner_text("#result-ending") == "Conceded by South."
    match.refresh_from_db()
    assert match.result["winners"] == [1]
