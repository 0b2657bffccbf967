"""Club pages: the list, a club's page, joining, invitations, requests, members, ladders."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from competitions import selectors, services
from competitions.forms import ClubForm, ClubMatchForm, LadderForm
from competitions.models import Club, JoinRequest
from competitions.views.common import done, form_errors, refuse
from games.endings import ending_words
from games.models import Match
from games.services import ServiceError


def _club_or_404(request: HttpRequest, slug: str) -> Club:
    club = selectors.clubs_visible(request.user).filter(slug=slug).first()
    if club is None:
        raise Http404(_("No such club."))
    return club


def club_url(club: Club) -> str:
    return reverse("competitions:club", args=[club.slug])


def club_list(request: HttpRequest) -> HttpResponse:
    return render(request, "competitions/club_list.html",
                  {"clubs": selectors.clubs_visible(request.user),
                   "site_ladders": selectors.site_ladders(),
                   "leagues": selectors.leagues_visible(request.user)})


@login_required
@require_http_methods(["GET", "POST"])
def club_create(request: HttpRequest) -> HttpResponse:
    form = ClubForm(request.POST or None)
    if request.method == "POST":
        if not form.is_valid():
            return render(request, "competitions/club_form.html", {"form": form}, status=400)
        try:
            club = services.club_create(by=request.user, **form.cleaned_data)
        except ServiceError as error:
            form.add_error(None, error.message)
            return render(request, "competitions/club_form.html", {"form": form}, status=400)
        return done(request, club_url(club))
    return render(request, "competitions/club_form.html", {"form": form})


def club_detail(request: HttpRequest, slug: str) -> HttpResponse:
    club = _club_or_404(request, slug)
    membership = services.membership_of(club, request.user)
    matches = selectors.club_matches(club)
    can_organise = (membership is not None and membership.can_organise) or request.user.is_staff
    context = {
        "club": club,
        "membership": membership,
        "can_organise": can_organise,
        "members": selectors.club_members(club),
        "ladders": club.ladders.all(),
        "tournaments": club.tournaments.all(),
        "leagues": club.leagues.all(),
        "running": matches.filter(status=Match.Status.ACTIVE).order_by("deadline")[:30],
        # open club matches: members take a seat through the match's invitation link
        "open_matches": matches.filter(status=Match.Status.OPEN).order_by("-created_at")[:30]
        if membership is not None else [],
        # each finished match with how it ended, as every surface says it
        "recent": [(match, ending_words(match))
                   for match in matches.filter(status=Match.Status.FINISHED)
                   .order_by("-finished_at")[:20]],
        "requests": club.join_requests.filter(status=JoinRequest.Status.PENDING)
        .select_related("user"),
        "pending_request": request.user.is_authenticated and club.join_requests.filter(
            user_id=request.user.pk, status=JoinRequest.Status.PENDING).exists(),
        "invite_url": request.build_absolute_uri(
            reverse("competitions:club_join", args=[club.invite_token])),
        "ladder_form": LadderForm(),
        "removals": selectors.club_removals(club) if can_organise else [],
        "team_matches": [tm for tm in selectors.club_team_matches(club)[:30]
                         if selectors.team_match_visible(tm, request.user)],
        "team_leagues": [league for league in selectors.club_team_leagues(club)[:30]
                         if selectors.team_league_visible(league, request.user)],
    }
    return render(request, "competitions/club_detail.html", context)


@require_http_methods(["GET", "POST"])
def club_join(request: HttpRequest, token: str) -> HttpResponse:
    """An invitation link (the club's, or an e-mailed one): log in, then confirm."""
    if not request.user.is_authenticated:
        from django.contrib.auth.views import redirect_to_login

        return redirect_to_login(request.get_full_path())
    if request.method == "GET":
        return render(request, "competitions/club_join.html", {"token": token})
    try:
        membership = services.club_join_by_token(token=token, user=request.user)
    except ServiceError as error:
        return refuse(request, error)
    messages.success(request, _("Welcome to %(club)s.") % {"club": membership.club.name})
    return done(request, club_url(membership.club))


@login_required
@require_POST
def club_request(request: HttpRequest, slug: str) -> HttpResponse:
    club = _club_or_404(request, slug)
    try:
        services.club_request_join(club_id=club.pk, user=request.user,
                                   message=request.POST.get("message", ""))
    except ServiceError as error:
        return refuse(request, error)
    messages.success(request, _("Your request is with the club's organisers."))
    return done(request, club_url(club))


@login_required
@require_POST
def club_request_decide(request: HttpRequest, slug: str, request_id: int) -> HttpResponse:
    club = _club_or_404(request, slug)
    decision = request.POST.get("decision")
    if decision not in ("approve", "decline"):
        return refuse(request, ServiceError("invalid", _("Approve or decline.")))
    if not club.join_requests.filter(pk=request_id).exists():
        raise Http404(_("No such request."))
    try:
        services.club_request_decide(request_id=request_id, by=request.user,
                                     approve=decision == "approve")
    except ServiceError as error:
        return refuse(request, error)
    return done(request, club_url(club))


@login_required
@require_POST
def club_invite(request: HttpRequest, slug: str) -> HttpResponse:
    club = _club_or_404(request, slug)
    try:
        invitation = services.club_invite_email(club_id=club.pk, by=request.user,
                                                email=request.POST.get("email", ""))
    except ServiceError as error:
        return refuse(request, error)
    messages.success(request, _("Invitation sent to %(email)s.") % {
        "email": invitation.email})
    return done(request, club_url(club))


@login_required
@require_POST
def club_leave(request: HttpRequest, slug: str) -> HttpResponse:
    club = _club_or_404(request, slug)
    try:
        services.club_leave(club_id=club.pk, user=request.user)
    except ServiceError as error:
        return refuse(request, error)
    messages.success(request, _("You have left %(club)s.") % {"club": club.name})
    return done(request, reverse("competitions:clubs"))


@login_required
@require_POST
def club_member(request: HttpRequest, slug: str, user_id: int) -> HttpResponse:
    """Remove a member, or change their role (``action`` remove / role)."""
    club = _club_or_404(request, slug)
    action = request.POST.get("action")
    try:
        if action == "remove":
            services.club_member_remove(club_id=club.pk, by=request.user, user_id=user_id)
            messages.success(request, _(
                "The member is removed. They cannot join again until you let them back in "
                "(under “Removed members”)."))
        elif action == "role":
            services.club_member_set_role(club_id=club.pk, by=request.user, user_id=user_id,
                                          role=request.POST.get("role", ""))
        else:
            raise ServiceError("invalid", _("Remove the member or change the role."))
    except ServiceError as error:
        return refuse(request, error)
    return done(request, club_url(club))


@login_required
@require_POST
def club_removal_lift(request: HttpRequest, slug: str, user_id: int) -> HttpResponse:
    """Let a removed person join the club again."""
    club = _club_or_404(request, slug)
    try:
        removal = services.club_removal_lift(club_id=club.pk, by=request.user, user_id=user_id)
    except ServiceError as error:
        return refuse(request, error)
    messages.success(request, _("%(name)s may join the club again.")
                     % {"name": removal.user.get_username()})
    return done(request, club_url(club))


@login_required
@require_POST
def club_invite_link_reset(request: HttpRequest, slug: str) -> HttpResponse:
    """Replace the club's invitation link: the old one stops working at once."""
    club = _club_or_404(request, slug)
    try:
        services.club_invite_link_reset(club_id=club.pk, by=request.user)
    except ServiceError as error:
        return refuse(request, error)
    messages.success(request, _("The club has a new invitation link; the old one no longer "
                                "works."))
    return done(request, club_url(club))


@login_required
@require_POST
def club_ladder_create(request: HttpRequest, slug: str) -> HttpResponse:
    club = _club_or_404(request, slug)
    try:
        services.require_organiser(club, request.user)
    except ServiceError as error:
        return refuse(request, error)
    form = LadderForm(request.POST)
    if not form.is_valid():
        return refuse(request, ServiceError("invalid", form_errors(form)))
    try:
        ladder = services.ladder_create(by=request.user, club_id=club.pk, **form.cleaned_data)
    except ServiceError as error:
        return refuse(request, error)
    return done(request, reverse("competitions:ladder", args=[ladder.pk]))


@login_required
@require_POST
def club_match_create(request: HttpRequest, slug: str) -> HttpResponse:
    """An organiser's club-only match: a game, member user names and the number of seats
    (seats without a name are joined through the club page)."""
    club = _club_or_404(request, slug)
    try:
        services.require_organiser(club, request.user)  # before reading the rest of the form
    except ServiceError as error:
        return refuse(request, error)
    form = ClubMatchForm(request.POST)
    if not form.is_valid():
        return refuse(request, ServiceError("invalid", form_errors(form)))
    data = form.cleaned_data
    try:
        match = services.club_match_create(
            club_id=club.pk, by=request.user, game=data["game"], options={},
            players=data["seat_players"], hours_per_phase=data["hours_per_phase"] or 48,
            title=data["title"])
    except ServiceError as error:
        return refuse(request, error)
    return done(request, reverse("games:match", args=[match.pk]))
