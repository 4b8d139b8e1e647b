"""League API routes under /api/."""

from rest_framework.routers import DefaultRouter

from league.api import views

router = DefaultRouter()
router.register("clubs", views.ClubViewSet, basename="club")
router.register("players", views.PlayerViewSet, basename="player")
router.register("partnerships", views.PartnershipViewSet, basename="partnership")
router.register("leagues", views.LeagueViewSet, basename="league")
router.register("seasons", views.SeasonViewSet, basename="season")
router.register("events", views.EventViewSet, basename="event")
router.register("registrations", views.RegistrationViewSet, basename="registration")
router.register("rotations", views.RotationViewSet, basename="rotation")
router.register("games", views.GameViewSet, basename="league-game")
router.register("invitations", views.InvitationViewSet, basename="invitation")

urlpatterns = router.urls
