/**
 * English lexical tables, written for this project from general knowledge of the language (no dataset copied).
 * Members are plain words; the index maps each through lemma() (irregular form, then Porter2), so a group's id is the
 * Porter2 stem of its first member. A lemma belongs to at most one group (checked by the tests).
 */

/** Irregular inflections mapped to their base form before stemming (won → win, bought → buy). */
export const EN_IRREGULAR: Readonly<Record<string, string>> = {
  won: 'win',
  lost: 'lose',
  bought: 'buy',
  sold: 'sell',
  went: 'go',
  gone: 'go',
  gave: 'give',
  given: 'give',
  began: 'begin',
  begun: 'begin',
  rose: 'rise',
  risen: 'rise',
  fell: 'fall',
  fallen: 'fall',
  grew: 'grow',
  grown: 'grow',
  made: 'make',
  took: 'take',
  taken: 'take',
  got: 'get',
  gotten: 'get',
  came: 'come',
  saw: 'see',
  seen: 'see',
  knew: 'know',
  known: 'know',
  thought: 'think',
  told: 'tell',
  said: 'say',
  found: 'find',
  left: 'leave',
  kept: 'keep',
  held: 'hold',
  brought: 'bring',
  built: 'build',
  sent: 'send',
  spent: 'spend',
  paid: 'pay',
  led: 'lead',
  met: 'meet',
  ran: 'run',
  wrote: 'write',
  written: 'write',
  spoke: 'speak',
  spoken: 'speak',
  chose: 'choose',
  chosen: 'choose',
  drove: 'drive',
  driven: 'drive',
  ate: 'eat',
  eaten: 'eat',
  drank: 'drink',
  drunk: 'drink',
  broke: 'break',
  broken: 'break',
  froze: 'freeze',
  frozen: 'freeze',
  hid: 'hide',
  hidden: 'hide',
  forgot: 'forget',
  forgotten: 'forget',
  understood: 'understand',
  taught: 'teach',
  caught: 'catch',
  sought: 'seek',
  fought: 'fight',
  felt: 'feel',
  meant: 'mean',
  dealt: 'deal',
  lent: 'lend',
  became: 'become',
  shut: 'shut',
  shrank: 'shrink',
  shrunk: 'shrink',
  wore: 'wear',
  worn: 'wear',
  born: 'bear',
  died: 'die',
  children: 'child',
  people: 'person',
  men: 'man',
  women: 'woman',
  mice: 'mouse',
  feet: 'foot',
  teeth: 'tooth',
  larger: 'large',
  largest: 'large',
  bigger: 'big',
  biggest: 'big',
  smaller: 'small',
  smallest: 'small',
  higher: 'high',
  highest: 'high',
  lower: 'low',
  lowest: 'low',
  cheaper: 'cheap',
  cheapest: 'cheap',
  faster: 'fast',
  fastest: 'fast',
  slower: 'slow',
  slowest: 'slow',
  easier: 'easy',
  easiest: 'easy',
  harder: 'hard',
  hardest: 'hard',
  older: 'old',
  oldest: 'old',
  newer: 'new',
  newest: 'new',
  longer: 'long',
  longest: 'long',
  shorter: 'short',
  shortest: 'short',
  stronger: 'strong',
  strongest: 'strong',
  weaker: 'weak',
  weakest: 'weak',
  safer: 'safe',
  safest: 'safe',
  richer: 'rich',
  poorer: 'poor',
  better: 'better',
  best: 'best',
  worse: 'worse',
  worst: 'worst',
};

/** Synonym groups, one per line; the first member names the group. */
export const EN_SYNONYMS = `
buy purchase acquire
sell vend
begin start commence launch initiate
end finish conclude terminate complete
car automobile vehicle auto
large big huge enormous massive sizable
small little tiny minor
increase rise grow climb surge boost expand
decrease decline drop fall reduce shrink diminish cut lessen
many numerous multiple
help assist aid support
use utilize employ
show display demonstrate reveal indicate
say claim assert declare
tell inform notify
ask inquire request
answer reply respond
get obtain receive gain
give provide supply offer grant
need require necessitate
want desire wish
choose select pick opt
allow permit enable authorize let
forbid prohibit ban
stop halt cease discontinue
keep retain maintain preserve
change alter modify adjust amend
fix repair mend
make create produce manufacture build construct
find discover locate
look seek search
think believe consider
know understand realize
try attempt
cost price charge fee
free complimentary gratis
cheap inexpensive affordable low-cost
expensive pricey
fast quick rapid speedy swift
slow sluggish
easy simple effortless straightforward
hard difficult tough challenging
good great excellent superb
bad poor terrible awful
important significant crucial vital essential
main primary principal chief major
rich wealthy affluent
job work occupation
company firm business corporation enterprise
worker employee staff
boss supervisor
customer client consumer buyer
doctor physician
illness disease sickness ailment
medicine drug medication
treatment therapy cure
symptom
pain ache
injury wound harm
death demise
die perish
kill slay
home house
trip journey voyage travel tour
hotel inn lodging accommodation
flight airplane plane aircraft
road street highway route
city town municipality
country nation state
government administration
law statute legislation
rule regulation
tax levy duty
money cash funds currency
income earnings revenue salary wage
profit
loss deficit
loan credit
bank lender
rate ratio
refund reimbursement
deliver ship dispatch
arrive reach
leave depart exit
return come-back
visit attend
reserve
cancel revoke annul
product item merchandise
quality
feature function capability
design style
size dimension
weight
color colour hue
broken faulty defective damaged
clean spotless
dirty filthy
quiet silent calm
loud noisy
happy glad pleased satisfied
sad unhappy sorrowful
angry furious
afraid scared frightened fearful
worry concern anxiety
problem issue trouble difficulty
reason cause
result outcome consequence effect
goal aim objective target purpose
method way approach technique
idea notion concept
opinion view
fact truth
mistake error fault
chance opportunity
danger risk hazard threat
safe secure
enough sufficient adequate
whole entire total
part portion section segment
often frequently
sometimes occasionally
always constantly
now currently presently
soon shortly
later afterward subsequently
before prior previously earlier
after following
recent latest
old ancient aged elderly
new modern fresh
young youthful
child kid youngster
adult grown-up
man male
woman female
student pupil learner
teacher instructor educator tutor
school academy
study research investigate examine analyze
test exam
learn
speak talk
write compose
read peruse
watch observe
hear listen
smart intelligent clever
stupid dumb foolish
strong powerful mighty
weak feeble frail
correct accurate exact
wrong incorrect inaccurate false
true genuine real authentic
fake counterfeit
similar alike comparable
different distinct dissimilar
same identical equal
legal legitimate
illegal unlawful illicit
relinquish surrender
manage operate administer oversee
lead guide
own possess have
live reside dwell
marry
marriage wedding matrimony
phone telephone mobile cellphone smartphone
computer pc laptop
internet web online
data
record document file
agree concur consent
disagree dissent
accept approve
reject refuse deny
win triumph prevail
lose forfeit
success achievement accomplishment
failure collapse
benefit advantage merit
drawback disadvantage downside
recommend suggest advise
prevent avoid
protect guard defend shield
attack assault
improve enhance
worsen deteriorate
continue proceed persist
happen occur
`;

/** Antonym pairs "a b", one per line; both sides are mapped to their canonical ids. */
export const EN_ANTONYMS = `
increase decrease
more less
more fewer
most least
before after
first last
win lose
buy sell
begin end
large small
high low
long short
wide narrow
deep shallow
thick thin
heavy light
fast slow
early late
easy hard
cheap expensive
good bad
better worse
best worst
rich poor
old new
old young
strong weak
hot cold
warm cool
wet dry
full empty
open close
open closed
up down
inside outside
above below
over under
top bottom
front back
north south
east west
push pull
give take
send receive
import export
enter exit
arrive leave
accept reject
agree disagree
allow forbid
include exclude
inclusion exclusion
add remove
success failure
succeed fail
profit loss
gain loss
benefit drawback
safe dangerous
safety danger
legal illegal
true false
correct incorrect
real fake
same different
similar different
possible impossible
likely unlikely
able unable
available unavailable
happy sad
love hate
friend enemy
support oppose
pro con
approve disapprove
positive negative
maximum minimum
always all none
everyone nobody
everything nothing
present absent
public private
free paid
visible invisible
known unknown
certain uncertain
clean dirty
quiet loud
clear unclear
simple complex
smart stupid
healthy sick
alive dead
birth death
male female
man woman
adult child
major minor
permanent temporary
internal external
past future
morning evening
day night
summer winter
rise fall
raise lower
import export
attack defend
`;

/** English words whose prefix negates the rest (reported as lexical negation cues). */
export const EN_LEXICAL_NEGATIVES = `
impossible unable unavailable unsuccessful incomplete illegal unlikely unsafe unhappy unsatisfied dissatisfied
unclear uncertain unknown unnecessary unaffordable inaccurate incorrect invalid ineffective inefficient insufficient
inadequate unreliable unusable unpaid untaxed nontaxable non-taxable tax-free tax-exempt nonprofit non-profit
unsupported unapproved unlicensed unregistered unfinished unresolved unconfirmed unreleased disallowed
`;

/**
 * Multi-word paraphrases rewritten to one canonical word before tokenising: [pattern, replacement], matched
 * case-insensitively at word boundaries. Words are joined by [ \t]+ so no pattern reaches across a line break, and no
 * pattern contains sentence punctuation.
 */
export const EN_PHRASES: ReadonlyArray<readonly [string, string]> = [
  ['(?:give|gives|gave|given|giving)[ \\t]+up', 'relinquish'],
  ['in[ \\t]+charge[ \\t]+of', 'manage'],
  ['(?:take|takes|took|taken|taking)[ \\t]+charge[ \\t]+of', 'manage'],
  ['(?:a[ \\t]+lot|lots|plenty|a[ \\t]+great[ \\t]+deal|a[ \\t]+good[ \\t]+deal)[ \\t]+of', 'many'],
  ['a[ \\t]+(?:large|great|huge)[ \\t]+number[ \\t]+of', 'many'],
  ['as[ \\t]+well[ \\t]+as', 'and'],
  ['in[ \\t]+addition[ \\t]+to', 'and'],
  ['prior[ \\t]+to', 'before'],
  ['ahead[ \\t]+of', 'before'],
  ['subsequent[ \\t]+to', 'after'],
  ['in[ \\t]+order[ \\t]+to', 'to'],
  ['(?:due|owing)[ \\t]+to', 'because'],
  ['because[ \\t]+of', 'because'],
  ['as[ \\t]+a[ \\t]+result[ \\t]+of', 'because'],
  ['in[ \\t]+spite[ \\t]+of', 'despite'],
  ['(?:take|takes|took|taken|taking)[ \\t]+part[ \\t]+in', 'participate'],
  ['(?:find|finds|found|finding)[ \\t]+out', 'discover'],
  ['(?:look|looks|looked|looking)[ \\t]+for', 'seek'],
  ['(?:look|looks|looked|looking)[ \\t]+into', 'investigate'],
  ['(?:set|sets|setting)[ \\t]+up', 'establish'],
  ['(?:put|puts|putting)[ \\t]+off', 'postpone'],
  ['(?:carry|carries|carried|carrying)[ \\t]+out', 'perform'],
  ['(?:go|goes|went|gone|going)[ \\t]+up', 'increase'],
  ['(?:go|goes|went|gone|going)[ \\t]+down', 'decrease'],
  ['(?:turn|turns|turned|turning)[ \\t]+down', 'reject'],
  ['(?:call|calls|called|calling)[ \\t]+off', 'cancel'],
  ['(?:sign|signs|signed|signing)[ \\t]+up', 'register'],
  ['(?:take|takes|took|taken|taking)[ \\t]+place', 'occur'],
  ['(?:cut|cuts|cutting)[ \\t]+(?:down|back)[ \\t]+on', 'reduce'],
  ['(?:put|puts|putting)[ \\t]+up[ \\t]+with', 'tolerate'],
  ['(?:run|runs|ran|running)[ \\t]+out[ \\t]+of', 'exhaust'],
  ['(?:bring|brings|brought|bringing)[ \\t]+about', 'cause'],
  ['(?:come|comes|came|coming)[ \\t]+up[ \\t]+with', 'devise'],
  ['(?:get|gets|got|gotten|getting)[ \\t]+rid[ \\t]+of', 'remove'],
  ['(?:make|makes|made|making)[ \\t]+use[ \\t]+of', 'use'],
  ['(?:pass|passes|passed|passing)[ \\t]+away', 'die'],
  ['(?:point|points|pointed|pointing)[ \\t]+out', 'note'],
  ['(?:deal|deals|dealt|dealing)[ \\t]+with', 'handle'],
  ['(?:free|free[ \\t]+of|without)[ \\t]+(?:charge|cost)', 'free'],
  ['at[ \\t]+no[ \\t]+(?:cost|charge|extra[ \\t]+cost)', 'free'],
  ['for[ \\t]+free', 'free'],
  ['(?:tax[ \\t-]free|tax[ \\t-]exempt|exempt[ \\t]+from[ \\t]+tax(?:es|ation)?)', 'untaxed'],
  ['(?:not|never)[ \\t]+(?:subject[ \\t]+to|liable[ \\t]+for)[ \\t]+tax(?:es|ation)?', 'untaxed'],
  ['(?:is|are|was|were|be)[ \\t]+able[ \\t]+to', 'can'],
  ['(?:is|are|was|were|be)[ \\t]+unable[ \\t]+to', 'cannot'],
  ['with[ \\t]+(?:regard|respect)[ \\t]+to', 'about'],
  ['in[ \\t]+(?:favor|favour)[ \\t]+of', 'support'],
  ['on[ \\t]+behalf[ \\t]+of', 'for'],
  ['in[ \\t]+the[ \\t]+event[ \\t]+of', 'if'],
  ['more[ \\t]+and[ \\t]+more', 'increasingly'],
  ['(?:get|gets|got|getting)[ \\t]+married', 'marry'],
  ['(?:is|are|was|were)[ \\t]+born', 'born'],
  ['at[ \\t]+the[ \\t]+same[ \\t]+time', 'simultaneously'],
];
