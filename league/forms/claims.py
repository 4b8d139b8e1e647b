"""The claim page's "make an account" form (`league.views.claims.claim_page`)."""

from django.contrib.auth.forms import UserCreationForm


class ClaimAccountForm(UserCreationForm):
    """A new account's username and password, checked in every way but one: whether the
    username is taken. The form answers the same for a taken and a free name; the service
    (`claim_accept_new_account`) refuses a taken one, in words that do not say it is taken, only
    once the link is known good, and the page counts that refusal in the lookup throttle."""

    def clean_username(self) -> str:
        return str(self.cleaned_data.get("username") or "")

    def validate_unique(self) -> None:
        """Not here: the account is made (or refused) with the claim, in one transaction."""
