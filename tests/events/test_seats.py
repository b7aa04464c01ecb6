"""Seat tokens, locks and hand-over (events/application/seats.py): a token opens its own
game's seat only, stored as its hash; the join link never opens the host's seat, a locked
one, a seat the table does not have, or any seat once the game is over; a hand-over link
revokes the seat's phones and works once."""
import pytest

from events.application import seats
from tests.conftest import run_sql


@pytest.fixture
def game(table_of):
    return table_of(names=("Anna", "Béla", "Cili"))


def test_a_token_opens_its_own_games_seat_only_and_is_stored_as_its_hash(db, game, table_of):
    other = table_of()
    assert seats.seat_for_token(db, game.id, game.tokens[1]) == 1
    assert seats.seat_for_token(db, other.id, game.tokens[1]) is None
    assert [seats.seat_for_token(db, game.id, t) for t in (None, "", "x" * 129, "unknown")] == [None] * 4
    stored = {r[0] for r in run_sql(db, "SELECT token_hash FROM seat_tokens WHERE game_id = :id", id=game.id)}
    assert seats.hash_token(game.tokens[1]) in stored and game.tokens[1] not in stored


def test_one_read_of_the_tokens_answers_every_phone_as_the_lookup_does(db, game):
    seat_of = seats.seats_by_token(db, game.id)
    for token in (*game.tokens, None, "unknown", "x" * 129):
        assert seat_of(token) == seats.seat_for_token(db, game.id, token)


@pytest.mark.parametrize("seat, closed, over, refused", [
    (1, set(), False, None),
    (0, {0}, False, (seats.HOST_SEAT_CLOSED, 403)),
    (2, {0, 2}, False, (seats.SEAT_LOCKED, 403)),
    (3, {0}, False, (seats.NO_SUCH_SEAT, 422)),
    (None, {0}, False, (seats.NO_SUCH_SEAT, 422)),
    (1, {0}, True, (seats.GAME_OVER, 403)),
])
def test_the_join_link_opens_a_free_seat_of_a_running_game_only(seat, closed, over, refused):
    assert seats.join_refused(seat, 3, closed, over) == refused


def test_a_locked_seat_and_the_hosts_are_closed_to_the_join_link(db, game):
    assert seats.closed_to_join(db, game.id) == {seats.HOST_SEAT}
    seats.set_lock(db, game.id, 2, True)
    seats.set_lock(db, game.id, 2, True)  # twice is once
    assert seats.closed_to_join(db, game.id) == {0, 2}
    seats.set_lock(db, game.id, 2, False)
    assert seats.locked_seats(db, game.id) == set()


def test_a_hand_over_revokes_the_seats_phones_and_its_link_works_once(db, game):
    extra = seats.issue_seat_token(db, game.id, 1)
    assert seats.phones_per_seat(db, game.id)[1] == 2
    older = seats.hand_over(db, game.id, 1)
    code = seats.hand_over(db, game.id, 1)
    assert seats.seat_for_token(db, game.id, game.tokens[1]) is None and seats.seat_for_token(db, game.id, extra) is None
    assert seats.revoked_seat(db, game.id, extra) == 1 and 1 in seats.locked_seats(db, game.id)
    assert seats.handover_seat(db, game.id, older) is None  # a newer link voids the older one
    assert seats.handover_seat(db, game.id, code) == 1  # looking does not use it up
    seat, token = seats.take_handover(db, game.id, code)
    assert seat == 1 and seats.seat_for_token(db, game.id, token) == 1
    assert seats.take_handover(db, game.id, code) is None
