"""Jobs: asked for once per inputs, computed in parts that can be retried, failing in words."""

import pytest

from jobs import selectors
from jobs.kinds import JobKind, kind_register
from jobs.models import Job, JobPart
from jobs.services import jobs
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

CALLS: list[object] = []


def _plan(params):
    CALLS.append(("plan", params["n"]))
    if params.get("refuse"):
        raise jobs.JobRefused("The season has no games yet.")
    return [(len(chunk), chunk) for chunk in ([1, 2], [3, 4], [5])][: params["n"]]


def _part(params, numbers):
    CALLS.append(("part", tuple(numbers)))
    if params.get("explode") and 5 in numbers:
        raise RuntimeError("boom")
    return sum(numbers)


def _finish(params, outputs):
    return {"sum": sum(outputs), "outputs": outputs}


kind_register(
    JobKind(
        name="test-sum",
        words="Adding up",
        unit="numbers",
        plan=_plan,
        run_part=_part,
        finish=_finish,
        may_see=lambda user, params: user.is_authenticated,
    )
)


@pytest.fixture(autouse=True)
def _calls():
    CALLS.clear()


def _ask(**params):
    fingerprint = jobs.job_fingerprint(kind="test-sum", inputs=params)
    return jobs.job_request(kind="test-sum", fingerprint=fingerprint, params=params)


def test_a_job_is_computed_in_parts_and_assembled():
    job = _ask(n=3)
    assert job.status == Job.Status.DONE
    assert job.result == {"sum": 15, "outputs": [3, 7, 5]}
    assert (job.done, job.total, job.parts) == (5, 5, 3)
    assert not JobPart.objects.filter(job=job).exists()  # outputs folded into the result


def test_asking_twice_for_the_same_inputs_computes_once():
    first = _ask(n=2)
    second = _ask(n=2)
    assert first.pk == second.pk
    assert [c for c in CALLS if c[0] == "plan"] == [("plan", 2)]
    assert _ask(n=3).pk != first.pk  # other inputs, another job


def test_a_part_run_again_changes_nothing():
    fingerprint = jobs.job_fingerprint(kind="test-sum", inputs={"n": 2})
    job = Job.objects.create(kind="test-sum", fingerprint=fingerprint, params={"n": 2})
    assert jobs.job_plan(job_id=job.pk) == [0, 1]
    jobs.job_part_run(job_id=job.pk, index=0)
    jobs.job_part_run(job_id=job.pk, index=0)  # a retried or twice-delivered task
    job.refresh_from_db()
    assert (job.done, job.parts_done, job.status) == (2, 1, Job.Status.RUNNING)
    assert CALLS.count(("part", (1, 2))) == 1
    assert jobs.job_plan(job_id=job.pk) == [1]  # planned once; only the missing part remains
    jobs.job_part_run(job_id=job.pk, index=1)
    job.refresh_from_db()
    assert job.status == Job.Status.DONE and job.result["sum"] == 10


def test_a_failing_job_says_why_and_asking_again_starts_afresh():
    job = _ask(n=3, explode=True)
    assert job.status == Job.Status.FAILED
    assert "error on the server" in job.error and "boom" not in job.error
    refused = _ask(n=1, refuse=True)
    assert refused.status == Job.Status.FAILED
    assert refused.error == "The season has no games yet."
    CALLS.clear()
    again = _ask(n=3, explode=True)
    assert again.pk == job.pk and again.status == Job.Status.FAILED
    assert ("plan", 3) in CALLS  # computed again, not the old failure shown


def test_progress_is_shown_in_words_and_only_to_whom_may_see_it(client):
    job = _ask(n=3)
    progress = selectors.job_progress(job=job)
    assert (progress.percent, progress.words, progress.unit) == (100, "Adding up", "numbers")
    url = f"/jobs/{job.pk}/"
    assert client.get(url).status_code == 404
    client.force_login(UserFactory())
    answer = client.get(url)
    assert answer.status_code == 200
    assert answer.json() | {"id": None} == {
        "id": None,
        "status": "done",
        "done": 5,
        "total": 5,
        "percent": 100,
        "error": "",
        "words": "Adding up",
        "unit": "numbers",
    }
    assert "no-cache" in answer["Cache-Control"]
    assert client.get("/jobs/00000000-0000-4000-8000-000000000000/").status_code == 404


SEEN_MIDWAY: list[tuple[int, int]] = []


def _long_part(params, size):
    """A part that tells how far it has got, and reads the page's figure as it goes."""
    job = Job.objects.get(kind="test-progress")
    for done in (0, 25, 50, 100):
        jobs.job_part_progress(done=done, of=100)
        progress = selectors.job_progress(job=Job.objects.get(pk=job.pk))
        SEEN_MIDWAY.append((progress.done, progress.total))
    return size


kind_register(
    JobKind(
        name="test-progress",
        words="Going slowly",
        unit="rows",
        plan=lambda params: [(40, 40), (8, 8)],
        run_part=_long_part,
        finish=lambda params, outputs: sum(outputs),
        may_see=lambda user, params: True,
    )
)


def test_a_long_part_moves_the_bar_as_it_goes():
    SEEN_MIDWAY.clear()
    job = jobs.job_request(kind="test-progress", fingerprint="p", params={})
    assert job.status == Job.Status.DONE and job.result == 48
    # The first part (40 rows) at 0, 25, 50 and 100 %; then the second (8) after the first's 40.
    assert SEEN_MIDWAY == [(0, 48), (10, 48), (20, 48), (40, 48),
                           (40, 48), (42, 48), (44, 48), (48, 48)]


def test_progress_outside_a_part_changes_nothing():
    jobs.job_part_progress(done=5, of=10)  # no part is running: nothing to tell
    job = _ask(n=1)
    assert selectors.job_progress(job=job).done == 2
