"""The tournament page's forms for its director: a player (check in, drop), a reason (re-pair,
reopen, call time), an awarded result (who forfeits, and why). The services check the rest
(the table exists, is playing or decided, the player is entered) and say what was wrong."""

from __future__ import annotations

from django import forms

from tournaments.brackets.directing import REASON_LENGTH

NAME_LENGTH = 100
AWARD_CHOICES = [
    ("forfeit", "Forfeit"),
    ("disqualification", "Disqualification"),
    ("no_show", "No-show"),
]


class PlayerForm(forms.Form):
    player = forms.CharField(max_length=NAME_LENGTH)


class ReasonForm(forms.Form):
    reason = forms.CharField(max_length=REASON_LENGTH, label="Why")


class TableReasonForm(ReasonForm):
    round = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
    table = forms.IntegerField(min_value=1, widget=forms.HiddenInput)


class AwardForm(TableReasonForm):
    kind = forms.ChoiceField(choices=AWARD_CHOICES, label="Ruling")
    player = forms.CharField(max_length=NAME_LENGTH, label="Who loses the table")
