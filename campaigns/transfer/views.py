"""Export a campaign as JSON (as the viewer may see it) and import such a file as a new campaign.

The work is in campaigns.transfer.services; these views check access and talk HTTP.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator
from contextlib import closing

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_safe

from campaigns.access import viewer_for
from campaigns.history import services as history
from campaigns.transfer import services as transfer


@never_cache
@require_safe
@login_required
def export(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """Download the campaign as the viewer may see it (secrets of other sides left out)."""
    viewer = viewer_for(request.user, campaign_id)
    content_type = "application/json; charset=utf-8"
    if request.method == "HEAD":  # the headers only: the file is not even built
        response = HttpResponse(content_type=content_type)
    else:
        # Streamed: the history and the dice log are read and sent a chunk at a time.
        response = StreamingHttpResponse(
            _encoded(transfer.stream_export(viewer)), content_type=content_type
        )
    response["Content-Disposition"] = content_disposition_header(
        as_attachment=True, filename=transfer.export_filename(viewer.campaign)
    )
    return response


def _encoded(pieces: Generator[str, None, None]) -> Iterator[bytes]:
    """The pieces as UTF-8; closing it (the server does, when the download ends or is
    abandoned) closes the export, and so its snapshot, at once."""
    with closing(pieces):
        for piece in pieces:
            yield piece.encode()


class ImportForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("Export file"),
        widget=forms.ClearableFileInput(attrs={"accept": ".json,application/json"}),
    )


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def import_campaign(request: HttpRequest) -> HttpResponse:
    """Make a new campaign from an export file; the importing user is its creator."""
    if request.method == "POST":
        form = ImportForm(request.POST, request.FILES)
        if form.is_valid():
            try:
                parsed = transfer.read_upload(form.cleaned_data["file"])
                campaign = transfer.load(parsed, user=request.user)
            except transfer.ImportRefused as error:
                form.add_error("file", str(error))
            else:
                membership = campaign.memberships.get(user=request.user)
                messages.success(
                    request,
                    _(
                        "Imported “%(name)s”. You are %(role)s in this copy; invite the others "
                        "from Members."
                    )
                    % {
                        "name": campaign.name,
                        "role": history.role_label(campaign, membership.role, membership.side),
                    },
                )
                return redirect("campaigns:detail", campaign_id=campaign.pk)
    else:
        form = ImportForm()
    return render(
        request,
        "campaigns/transfer/import.html",
        {"form": form, "max_megabytes": transfer.MAX_IMPORT_BYTES // (1024 * 1024)},
    )
