from django.urls import path

from games.api import replay, views

urlpatterns = [
    path("results/", views.ResultList.as_view(), name="api-results"),
    path("results/<int:game_id>/", views.ResultDetail.as_view(), name="api-result"),
    path(
        "results/<int:game_id>/submissions/",
        views.SubmissionCreate.as_view(),
        name="api-result-submissions",
    ),
    path(
        "results/<int:game_id>/confirmations/",
        views.ConfirmationCreate.as_view(),
        name="api-result-confirmations",
    ),
    path(
        "results/<int:game_id>/corrections/",
        views.CorrectionCreate.as_view(),
        name="api-result-corrections",
    ),
    path(
        "results/<int:game_id>/submissions/<int:submission_id>/withdraw/",
        views.SubmissionWithdrawal.as_view(),
        name="api-result-submission-withdraw",
    ),
    path(
        "results/<int:game_id>/submissions/<int:submission_id>/restore/",
        views.SubmissionWithdrawal.as_view(restore=True),
        name="api-result-submission-restore",
    ),
    path("results/<int:game_id>/replay/", replay.ResultReplay.as_view(), name="api-result-replay"),
    path("sheets/check/", views.SheetCheck.as_view(), name="api-sheet-check"),
    path("logs/check/", views.LogCheck.as_view(), name="api-log-check"),
    path(
        "schemas/move-log/",
        views.SchemaView.as_view(schema_name="move_log"),
        name="api-schema-move-log",
    ),
    path(
        "schemas/score-sheet/",
        views.SchemaView.as_view(schema_name="score_sheet"),
        name="api-schema-score-sheet",
    ),
]
