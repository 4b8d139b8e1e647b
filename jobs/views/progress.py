"""A job's progress, as JSON for the progress bar of the page that asked for it."""

import uuid

from django.http import Http404, HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from jobs import selectors
from jobs.kinds import kind_get
from web.throttling import page_lookup_throttled


@require_safe
@never_cache
@page_lookup_throttled
def job_progress(request: HttpRequest, job_id: uuid.UUID) -> JsonResponse:
    job = selectors.job_by_id(job_id=job_id)
    if job is None or not kind_get(job.kind).may_see(request.user, job.params):
        raise Http404("No such job")
    return JsonResponse(selectors.job_progress(job=job).as_json())
