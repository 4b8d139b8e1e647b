"""The director's results pages (disputes, versions, corrections), under /director/ with the
other director pages."""

from django.urls import path

from games.views import director as director_views
from games.views import imports as import_views
from games.views import log_imports as log_import_views
from games.views import paper as paper_views
from games.views import score_sheets as score_sheet_views

urlpatterns = [
    path("clubs/<slug:slug>/import/", import_views.results_import, name="director-results-import"),
    path("clubs/<slug:slug>/import/<uuid:job_id>/", import_views.results_import_job_page,
         name="director-results-import-job"),
    path("events/<slug:slug>/score-sheets/", score_sheet_views.score_sheets, name="director-score-sheets"),
    path("events/<slug:slug>/results/", director_views.event_results, name="director-results"),
    path("events/<slug:slug>/logs/", log_import_views.logs_import_page, name="director-logs-import"),
    path("events/<slug:slug>/logs/<uuid:job_id>/", log_import_views.logs_import_job_page,
         name="director-logs-import-job"),
    path("games/<int:game_id>/", director_views.game_result, name="director-result"),
    path("games/<int:game_id>/confirm/", director_views.confirm_version, name="director-result-confirm"),
    path("games/<int:game_id>/check/", director_views.check_sheet, name="director-result-check"),
    path("games/<int:game_id>/settle-by-log/", director_views.settle_by_log, name="director-result-settle-by-log"),
    path("games/<int:game_id>/paper/", paper_views.enter_paper, name="director-result-paper"),
    path("games/<int:game_id>/correct/", director_views.correct_result, name="director-result-correct"),
    path(
        "games/<int:game_id>/entries/<int:submission_id>/withdraw/",
        director_views.withdraw_entry,
        name="director-entry-withdraw",
    ),
    path(
        "games/<int:game_id>/entries/<int:submission_id>/restore/",
        director_views.restore_entry,
        name="director-entry-restore",
    ),
]
