"""10-Point Pitch codes, defined once: the compiled engine (``rules.py``, ``kernel.py``,
``strategies.py``, all ``@njit``) and the Python side (``spec.py``, ``view.py``) import them
from here.

numba freezes module globals into the compiled code, and ``analyzer.jit`` keys a game's
cache on the files of its package that mention njit: this docstring does, so that a change
here recompiles the game instead of leaving stale kernels in the cache.
"""


# ---- cards (``suit * 13 + rank``, rank 0 = the 2 .. 12 = the ace; the jokers after) ----------
LOW_JOKER, HIGH_JOKER = 52, 53
NCARDS = 54
HAND_SIZE = 9        # cards dealt to each seat
DEALT = 4 * HAND_SIZE  # the stock is deck[DEALT:NCARDS]
KEEP = 6             # trumps a player is refilled to, and discards down to
SUITS = "CDHS"
ALL_POINTS = 10      # points in play each hand

# ---- bids ----------------------------------------------------------------------------------
MOON = 11            # a moon bid, above 10
BID_LEVELS = (4, 5, 6, 7, 8, 9, 10, MOON)
LOWEST_BID = 4       # also the stuck dealer's forced bid

# ---- move codes (one space for every decision, so an error message can name any move) -------
MOVE_PASS = 60
MOVE_BID0 = 60       # a bid b (4..10, 11 = moon) is MOVE_BID0 + b; a pass is MOVE_BID0 + 0
MOVE_MOON = MOVE_BID0 + MOON
MOVE_TRUMP0 = 80     # naming suit t is MOVE_TRUMP0 + t (t indexes SUITS)
MOVE_KEEP, MOVE_GIVE = 90, 91
# discards and plays: the card code 0..53

# ---- decision kinds (the view's KIND, the record's "kind") -----------------------------------
KIND_BID, KIND_TRUMP, KIND_GIVE, KIND_DISCARD, KIND_PLAY = 0, 1, 2, 3, 4
KINDS = ("bid", "trump", "give", "discard", "play")

# ---- phases of a hand (``sc[S_PHASE]``) ------------------------------------------------------
PH_BID, PH_TRUMP, PH_GIVE, PH_DISCARD, PH_PLAY, PH_DONE = 0, 1, 2, 3, 4, 5

# ---- trace events (records: spec.decode) ------------------------------------------------------
EV_DEAL, EV_DECIDE, EV_PITCHER, EV_REFILL, EV_REST, EV_TRICK, EV_HAND_END, EV_GAME_END = 1, 2, 3, 4, 5, 6, 7, 8
TAG_STOCK = 100      # the list tag of the stock in a deal event

# ---- the ``ismcts`` strategy's parameter codes (kernel.ismcts_move; spec.py bounds them) -----
#: ``hands`` at this, its highest value and the default: a playout is valued by the game's
#: result, the rest of the game after this hand by shared futures (kernel.hand_future)
WHOLE_GAME = 1000
#: ``hands`` at this, its lowest value: a playout plays the searched hand only and is valued by the
#: match-equity table (met.py, built by scripts/pitch10_met.py): team 0's chance to win the game
#: from the scores the hand leaves and the next dealer's team (kernel.met_value)
MATCH_EQUITY = 0
#: ``search``: the play decisions only (the others are the base's); every decision, the tree
#: walking on to the hand's end; every decision, the tree within the decision's own phase
SEARCH_PLAY, SEARCH_ALL, SEARCH_PHASE = 1, 2, 3
#: with ``hands`` = WHOLE_GAME a hand that does not end the game is valued by this many playouts
#: of the rest of the game, the same futures for every way the hand ends (kernel.future_value)
FUTURES = 32
#: the most ``iterations`` (the tree holds one node per iteration, allocated per block of games)
MAX_ITERATIONS = 1_000_000

# ---- kernel parameter array (``params``), in the order of the spec's options -----------------
P_TARGET, P_TAKEN_VARIANT = 0, 1

# ---- scalar registers of a state bundle (``ws.sc``; Python reads them through spec.register) --
(S_PHASE, S_SEAT, S_DEALER, S_HIGH, S_PITCHER, S_TRUMP, S_TOP, S_TURN, S_LEADER, S_WIN_K, S_WIN_SEAT,
 S_POINTS, S_SEEN, S_HANDS, S_DECISIONS, S_REST_TO, S_REST_N, S_ALIVE, S_DELTA0, S_DELTA1, S_OUTCOME,
 S_WINNER, S_HAS_USER) = range(23)
N_SC = 23

# ---- why a position's history is impossible (kernel.load_position; spec turns the code and
# its arguments into the one-line message) -----------------------------------------------------
E_OK = 0
E_BID_AFTER_END = 1      # (index of the bid)
E_STUCK_DEALER = 2       # ()
E_BID_NOT_ABOVE = 3      # (bid, seat, highest bid)
E_BIDDING_OPEN = 4       # (): trump or later facts given while the bidding goes on
E_REFILL_TOO_MANY = 5    # (seat, count, cards left in the stock)
E_REFILL_OWN = 6         # (seat, trumps in its hand, count it is dealt, count given)
E_REST_TO = 7            # (pitcher, seat given)
E_NO_REST = 8            # (): rest_to given, but nothing was left after the refill
E_REST_COUNT = 9         # (cards listed, cards left)
E_DISCARD_NOT_HELD = 10  # (card)
E_DISCARD_TOO_MANY = 11  # (seat, trumps held after the discards given)
E_DISCARD_FIRST = 12     # (seat, trumps held): plays given before the seat's discards
E_NOT_TRUMP = 13         # (card)
E_PLAY_NOT_HELD = 14     # (seat, card)
E_OUT_OF_TURN = 15       # (trick number from 1, seat that played, seat to play)
E_TRICK_OPEN = 16        # (trick number from 1, seat still to play): listed as completed, it is not
E_TRICK_DONE = 17        # (): the current trick is complete
E_HAND_OVER = 18         # (): no decision is left in the hand
E_OWN_OUT = 19           # (seat): listed as out while it holds trumps
E_OUT_PLAYED = 20        # (seat): listed as out, but it plays in the current trick
E_TOO_MANY_TRUMPS = 21   # (seat): it would have played or still hold more than six trumps
E_OWN_NONE = 22          # (seat): the deciding seat holds no trump
E_TRICK_OVER = 23        # (trick number from 1, seat): it plays after the trick is complete
E_REST_UNSEEN = 24       # (seat): the rest is listed, but it went to another seat
E_CARD_OF_SEAT = 25      # (seat, card, deciding seat): it plays a card the deciding seat holds
