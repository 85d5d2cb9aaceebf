"""The identity engine, pure (no I/O): colors (CR 202.2, 204, 604.3) and Commander color identity (903.4) with
evidence (`analyze`), fit (903.5c), eligibility and pairing (903.3, 702.124), and the lines of rules text that
make a card mass land denial or an extra-turn card for the Commander Brackets (`guideline_findings`). Facts
only: every word the bot says about them is `bot.present`'s."""

from bot.identity.commander import check_pairing as check_pairing
from bot.identity.commander import commander_eligibility as commander_eligibility
from bot.identity.commander import is_banned as is_banned
from bot.identity.commander import is_commander_candidate as is_commander_candidate
from bot.identity.engine import analyze as analyze
from bot.identity.fit import ChosenColorMisplaced as ChosenColorMisplaced
from bot.identity.fit import assign_chosen as assign_chosen
from bot.identity.fit import check_fit as check_fit
from bot.identity.guidelines import Guideline as Guideline
from bot.identity.guidelines import GuidelineEffect as GuidelineEffect
from bot.identity.guidelines import GuidelineFinding as GuidelineFinding
from bot.identity.guidelines import guideline_findings as guideline_findings
from bot.identity.model import Analysis as Analysis
from bot.identity.model import ColorChoice as ColorChoice
from bot.identity.model import IdentityError as IdentityError
from bot.identity.model import NonDeckKind as NonDeckKind
from bot.identity.model import PairingKind as PairingKind
from bot.identity.model import PairingTrait as PairingTrait
from bot.identity.model import PairingTraits as PairingTraits
from bot.identity.model import Verdict as Verdict
from bot.identity.model import VerdictCode as VerdictCode
from bot.identity.pairing import can_pair as can_pair
from bot.identity.pairing import pairing_traits as pairing_traits
