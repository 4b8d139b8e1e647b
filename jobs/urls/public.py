from django.urls import path

from jobs.views import progress

urlpatterns = [
    path("jobs/<uuid:job_id>/", progress.job_progress, name="job-progress"),
]
