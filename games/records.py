"""Records beside the games that the server signs, as it signs a game's commands and seating
(``games.chain``, ``games.seating``): what a club typed in and the standings are read through,
such as a league player's name, a season's standings settings or a night's number.

A model takes part by deriving from ``SignedRecord`` and naming its ``signed_fields``:

    signature = the server's Ed25519 signature of
                canonical(["uno-record-v1", "app_label.model", pk, {field: value, ...}])

where a foreign key is given by its id and a date by its ISO form. ``save`` signs the row as
it then stands in the database (read back under the row's lock, so two saves at once sign
what both wrote), in the save's transaction. It signs only over a row that was as signed
before the save: a row changed behind the server's back is saved but not signed again, and an
error is logged, so an organiser's later edit does not bless the change (an operator who has
checked such a row signs it with ``sign()`` from ``manage.py shell``).

``manage.py verify_events`` then finds a record changed by someone who can write to the
database but does not hold the signing key (``checked``): two players' names swapped, a
season's attendance points changed and its standings rebuilt to match, a night renumbered, a
row moved to another league.

Fields that the database itself changes (an account deleted, a ``SET_NULL``) or that follow
from the log (a projection) are not signed. Rows deleted are not found by this: only rows
that are there are checked. As with the seating, a record put back whole with the signature it
had before (a name changed back) is not found either.
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, ClassVar

from django.apps import apps
from django.db import models, router, transaction

from games.chain import (
    NOT_SIGNED,
    canonical_json,
    server_public_keys,
    server_signer,
    signature_problem,
)

logger = logging.getLogger(__name__)

_RECORD = "uno-record-v1"
_NO_ROW = "not in the database"


def plain(value: Any) -> Any:
    """A field's value as it is signed: dates in their ISO form, the rest as JSON has it."""
    if isinstance(value, datetime.date):  # a datetime is a date too
        return value.isoformat()
    return value


def attnames(model: Any, fields: tuple[str, ...]) -> list[str]:
    """The columns of ``fields`` (``league`` -> ``league_id``), of a model or a migration's
    historical model alike."""
    return [model._meta.get_field(name).attname for name in fields]


def message(label: str, pk: Any, values: Mapping[str, Any]) -> bytes:
    """What the server signs of the record ``pk`` of the model ``label``, whose signed columns
    hold ``values``."""
    return canonical_json(
        [_RECORD, label, pk, {name: plain(value) for name, value in values.items()}]
    ).encode()


class SignedRecord(models.Model):
    """A model whose ``signed_fields`` the server signs on every save (see the module)."""

    signed_fields: ClassVar[tuple[str, ...]] = ()

    signature = models.CharField(max_length=200, blank=True, default="", editable=False)

    class Meta:
        abstract = True

    def save(self, *args: Any, **kwargs: Any) -> None:
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and self._signs_none_of(update_fields):
            # A tournament's status, a night's closing: the signed columns are not written,
            # so the signature stands as it is (and nothing is read for it).
            super().save(*args, **kwargs)
            return
        using = kwargs.get("using") or router.db_for_write(type(self), instance=self)
        with transaction.atomic(using=using):
            before = None if self.pk is None else self.stored_problem(using)
            super().save(*args, **kwargs)
            if before is not None and before != _NO_ROW:
                logger.error(
                    "%s %s was saved but not signed again: before the save it was %s",
                    self._meta.verbose_name,
                    self.pk,
                    before,
                )
                return
            self.sign(using)

    def stored_problem(self, using: str | None = None) -> str | None:
        """What is wrong with this record as the database holds it (``problem``), holding its
        row until the transaction ends; None when it is as signed, ``_NO_ROW`` for no row."""
        model = type(self)
        manager = model._base_manager.db_manager(using)
        # The lock an UPDATE of the row takes (FOR NO KEY UPDATE on PostgreSQL), not more: rows
        # that refer to this one (a league's players, a season's results) are still written
        # meanwhile, as they were before records were signed.
        rows = manager.select_for_update(no_key=True).filter(pk=self.pk)
        row = rows.values("signature", *model.signed_columns()).first()
        if row is None:
            return _NO_ROW
        signature = row.pop("signature")
        return problem(model, self.pk, row, signature, server_public_keys())

    def sign(self, using: str | None = None) -> None:
        """Sign the row as the database now holds it (this transaction's write included, and a
        write another committed while this one waited for the row). An operator who has
        checked a row reported by ``verify_events`` calls it from ``manage.py shell``."""
        self.signature = type(self).sign_rows([self.pk], using)[self.pk]

    @classmethod
    def update_signed(cls, rows: models.QuerySet[Any], **values: Any) -> int:
        """``rows.update(**values)``, the rows signed again as ``save`` signs one: under their
        locks, only those that were as signed before (the others are updated but not signed
        again, and an error is logged for each). The number of rows updated."""
        using = rows.db
        with transaction.atomic(using=using):
            keys, columns = server_public_keys(), cls.signed_columns()
            locked = rows.select_for_update(no_key=True).order_by("pk")
            every, signed = [], []
            for row in locked.values("pk", "signature", *columns):
                pk, signature = row.pop("pk"), row.pop("signature")
                every.append(pk)
                before = problem(cls, pk, row, signature, keys)
                if before is None:
                    signed.append(pk)
                else:
                    logger.error(
                        "%s %s was saved but not signed again: before the save it was %s",
                        cls._meta.verbose_name,
                        pk,
                        before,
                    )
            manager = cls._base_manager.db_manager(using)
            count = manager.filter(pk__in=every).update(**values)
            cls.sign_rows(signed, using)
        return count

    @classmethod
    def sign_rows(cls, pks: Iterable[Any], using: str | None = None) -> dict[Any, str]:
        """Sign the rows ``pks`` as the database now holds them, under their locks, in a
        transaction of its own if there is none (rows written in bulk, which no ``save``
        signed, or a row an operator has checked). Their signatures, by primary key."""
        manager = cls._base_manager.db_manager(using)
        signer, label = server_signer(), cls._meta.label_lower
        signatures, changed = {}, []
        with transaction.atomic(using=manager.db):
            rows = manager.select_for_update(no_key=True).filter(pk__in=list(pks)).order_by("pk")
            for row in rows.values("pk", "signature", *cls.signed_columns()):
                pk, stored = row.pop("pk"), row.pop("signature")
                signatures[pk] = signer.sign_message(message(label, pk, row))
                if signatures[pk] != stored:  # Ed25519 signs a message the same way every time
                    changed.append(cls(pk=pk, signature=signatures[pk]))
            manager.bulk_update(changed, ["signature"], batch_size=500)
        return signatures

    @classmethod
    def signed_columns(cls) -> list[str]:
        return attnames(cls, cls.signed_fields)

    @classmethod
    def _signs_none_of(cls, fields: Iterable[str]) -> bool:
        """Whether a save of ``fields`` (names or columns, as ``update_fields`` takes them)
        writes none of the signed columns."""
        return set(fields).isdisjoint((*cls.signed_fields, *cls.signed_columns()))

    @classmethod
    def described(cls, pk: Any, values: Mapping[str, Any]) -> str:
        """How ``problems`` names a record: its kind, number and name where it has one."""
        name = values.get("name")
        what = f"{cls._meta.verbose_name} {pk}"
        return f"{what} ({name!r})" if name is not None else what


def signed_models() -> list[type[SignedRecord]]:
    """Every installed model whose records the server signs."""
    return [model for model in apps.get_models() if issubclass(model, SignedRecord)]


def problem(
    model: type[SignedRecord],
    pk: Any,
    values: Mapping[str, Any],
    signature: str,
    keys: Mapping[str, str],
) -> str | None:
    """What is wrong with the record ``pk`` of ``model``, whose signed columns hold ``values``,
    against the server's signature of it (``keys``: key id -> public key), or None."""
    found = signature_problem(keys, signature, message(model._meta.label_lower, pk, values))
    if found != NOT_SIGNED:
        return found
    words = [str(model._meta.get_field(name).verbose_name) for name in model.signed_fields]
    listed = ", ".join(words[:-1]) + " or " * (len(words) > 1) + words[-1]
    return f"{NOT_SIGNED} (its {listed} changed)"


def checked(public_keys: Mapping[str, str]) -> Iterator[tuple[type[SignedRecord], str | None]]:
    """Each signed record, read a chunk at a time, with what is wrong with it (or None)."""
    for model in signed_models():
        columns = model.signed_columns()
        rows = model._base_manager.order_by("pk").values("pk", "signature", *columns)
        for row in rows.iterator(chunk_size=2000):
            pk, signature = row.pop("pk"), row.pop("signature")
            found = problem(model, pk, row, signature, public_keys)
            yield model, None if found is None else f"{model.described(pk, row)}: {found}"


def sign_all(model: Any, fields: tuple[str, ...], signer: Any) -> None:
    """Sign ``fields`` of every row of ``model`` (a migration's historical model) as it stands:
    what a migration that starts signing a model does for the rows written before it."""
    label = model._meta.label_lower
    for row in model.objects.order_by("pk").values("pk", *attnames(model, fields)):
        pk = row.pop("pk")
        model.objects.filter(pk=pk).update(signature=signer.sign_message(message(label, pk, row)))
