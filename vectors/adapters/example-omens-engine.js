#!/usr/bin/env node
// An example of an engine behind the omen-solver vector protocol (docs/vectors.md), in plain
// Node.js with no npm package. Run the vectors and the fuzzer against it with:
//
//   omen-solver vectors check vectors --engine "node vectors/adapters/example-omens-engine.js"
//   omen-solver vectors fuzz --engine "node vectors/adapters/example-omens-engine.js"
//
// The protocol part (reading requests, answering one JSON line each) is at the bottom and is
// what an adapter for your own engine keeps; the rest is a small Omens engine standing in for
// yours. It plays the whole game under the rulebook's settings (preset "rulebook", declared in
// its hello): new games and new rounds dealt card by card, every immediate card (Law, Dream,
// Jealousy, Secret, Wrath, Betrayal, The Absolute's secret exchange), the end of the bout, Luck,
// Pride and the round end. For a setup under other settings it answers "unsupported" (the
// runner skips such a vector; it sets an engine with built-in settings up under its own).
"use strict";

const readline = require("readline");

// -- the cards (omens-cards.md) -------------------------------------------------------------------

const COLOURS = {};
for (let v = 1; v <= 8; v++) COLOURS[v] = ["green"];
for (let v = 9; v <= 16; v++) COLOURS[v] = ["yellow"];
COLOURS[17] = ["green", "yellow", "red", "blue"]; // Malice counts as every colour
for (let v = 18; v <= 25; v++) COLOURS[v] = ["red"];
for (let v = 26; v <= 35; v++) COLOURS[v] = ["blue"];

const EXTREME = { // discard the highest/lowest card of a colour in play
  1: ["green", "highest"], 8: ["green", "lowest"], 9: ["yellow", "highest"],
  16: ["yellow", "lowest"], 18: ["red", "highest"], 20: ["any", "lowest"], 25: ["red", "lowest"],
};
const SELF_IF = { // discard this card if ...
  2: ["other", "green"], 3: ["other", "yellow"], 4: ["other", "red"], 5: ["other", "blue"],
  6: ["lowest"], 7: ["alone", "green"], 10: ["absolute"], 11: ["alone", "yellow"],
  19: ["alone", "red"],
};
const FEAR = 12, LUCK = 13, MIRROR = 14, LAW = 15, DREAM = 21, PRIDE = 22, JEALOUSY = 23;
const SECRET = 24, SADNESS = 26, WINTER = 27, WRATH = 28, BETRAYAL = 29;
const ABSOLUTES = [30, 31, 32, 33, 34, 35];
const isAbsolute = (card) => card >= 30 && card <= 35;
const isNow = (card) => [LAW, DREAM, JEALOUSY, SECRET, WRATH, BETRAYAL].includes(card)
  || isAbsolute(card);
const hasColour = (card, colour) => colour === "any" || COLOURS[card].includes(colour);
const ascending = (a, b) => a - b;

// The settings this example follows: the rulebook's (preset "rulebook").
const RULEBOOK = {
  absolute_timing: "now", absolute_exchange: "secret", law_binds: "every_placement",
  law_after_jealousy: "stays", law_when_last: "choose", wrath_replay: "forbidden",
  jealousy_own_card: "allowed", dream_target_turn: "placement_is_turn", now_resolver: "position",
  betrayal_give_back: "allowed", card_owner: "position", return_to: "position",
  sadness_lone_card: "wins", fear_pass_on: "no", luck_chooser: "owner",
  luck_timing: "before_return", zero_cards: "luck_only", pride_next_round: "no",
  reshuffle_absolutes: "used_only", extreme_includes_self: "yes",
};

class Unsupported extends Error {}

// -- a small Omens engine -------------------------------------------------------------------------
//
// Seats are 1..N. A card in play is {card, before, by}: the seat it lies in front of and the
// seat that placed it. Decisions still owed are a stack of obligations ({kind, seat, card,
// other}); the bout ends once nobody is left to play and nothing is owed.

class Omens {
  constructor(options, position) {
    for (const [name, value] of Object.entries(options.settings || {})) {
      if (RULEBOOK[name] !== value) throw new Unsupported(`option ${name} = ${value}`);
    }
    this.players = position.players;
    this.scope = position.scope;
    this.hands = {};
    for (let seat = 1; seat <= this.players; seat++) this.hands[seat] = [];
    this.last = null; // the last bout's state (the protocol's "state")
    this.winnerSeat = null;
    this.over = false;
    this.startBout(1);
    if (position.phase === "new-game") {
      // rules 000, "Setup": one Absolute face up to each seat, then the teams, then the hands
      this.teams = null;
      this.roundsWon = [];
      this.box = [];
      this.phase = "deal";
      this.deck = [...ABSOLUTES];
      this.dealQueue = Array.from({ length: this.players }, (_, i) => i + 1);
    } else {
      this.teams = position.teams.map((team) => [...team].sort(ascending));
      this.roundsWon = [...position.rounds_won];
      this.box = [...position.box];
      for (let seat = 1; seat <= this.players; seat++) {
        this.hands[seat] = [...position.hands[String(seat)]].sort(ascending);
      }
      this.phase = "bout";
      this.startBout(position.leader);
    }
    this.advance();
  }

  startBout(leader) {
    this.leader = leader;
    this.played = new Set();
    this.front = [];
    this.law = null; // {card, direction: +1 higher, -1 lower}
    this.pending = [];
    this.outcome = null;
    this.luckVictim = null; // [seat, card]
  }

  teamOf(seat) { return this.teams.find((team) => team.includes(seat)); }

  nextToPlay(hands = this.hands, played = this.played) {
    for (let step = 0; step < this.players; step++) {
      const seat = ((this.leader - 1 + step) % this.players) + 1;
      if (!played.has(seat) && hands[seat].length > 0) return seat;
    }
    return null;
  }

  // -- who acts, and what they may do ---------------------------------------------------------

  toAct() {
    if (this.over) return null;
    if (this.phase === "deal") return "chance";
    const top = this.pending[this.pending.length - 1];
    if (top && top.kind === "exchange") return [top.seat, top.other].sort(ascending);
    if (top) return top.seat;
    return this.nextToPlay();
  }

  // Every legal action as {text, apply}.
  actions() {
    if (this.over) return [];
    if (this.phase === "deal") {
      const seat = this.dealQueue[0];
      return this.deck.map((card) => ({ text: `deal ${card} to ${seat}`, apply: () => this.deal(card) }));
    }
    const top = this.pending[this.pending.length - 1];
    if (!top) return this.playActions(this.nextToPlay(), null);
    const seat = top.seat;
    switch (top.kind) {
      case "exchange": { // The Absolute: both cards chosen at once, face down
        const [a, b] = [top.seat, top.other].sort(ascending);
        const moves = [];
        for (const x of this.hands[a]) {
          for (const y of this.hands[b]) {
            moves.push({ text: `${a}:gives ${x} & ${b}:gives ${y}`, apply: () => this.exchange(a, x, b, y) });
          }
        }
        return moves;
      }
      case "dream": // Dream's target places a card in front of the Dream player
        return this.lawFilter(this.hands[seat], this.law).map((card) => ({
          text: `${seat}:${card}>${top.other}`, apply: () => this.place(seat, card, top.other, null),
        }));
      case "replay": { // Wrath: play another card (not the one sent back, unless it is the only one)
        return this.playActions(seat, top.card);
      }
      case "resolve": // a card placed in front of this seat by someone else (Dream, Betrayal)
        return this.pendingChoices(top).map((choice) => ({
          text: `${seat}:resolve ${top.card}${words(choice)}`,
          apply: () => { this.pending.pop(); this.resolveNow(top.card, seat, choice); },
        }));
      case "show": // Secret's "ask": show any card of the hand
        return this.hands[seat].map((card) => ({
          text: `${seat}:shows ${card}`, apply: () => { this.pending.pop(); },
        }));
      case "luck": // Luck: discard a card from hand, never Fear
        return this.hands[seat].filter((c) => c !== FEAR).map((card) => ({
          text: `${seat}:discards ${card}`, apply: () => this.luckDiscard(seat, card),
        }));
      default:
        throw new Error(`unknown obligation ${top.kind}`);
    }
  }

  // Law: play a card higher (lower) than Law's value if you can, else any card.
  lawFilter(cards, law) {
    if (!law) return [...cards];
    const following = cards.filter((c) => (law.direction > 0 ? c > law.card : c < law.card));
    return following.length ? following : [...cards];
  }

  playActions(seat, replaced) {
    let candidates = this.hands[seat];
    if (replaced !== null) candidates = candidates.filter((c) => c !== replaced);
    if (!candidates.length) candidates = this.hands[seat];
    const moves = [];
    for (const card of this.lawFilter(candidates, this.law)) {
      if (card === DREAM) {
        moves.push({ text: `${seat}:${card}`, apply: () => this.place(seat, card, null, null) });
        for (let other = 1; other <= this.players; other++) {
          if (other !== seat && !this.played.has(other) && this.hands[other].length) {
            moves.push({ text: `${seat}:${card}>${other}`, apply: () => this.place(seat, card, other, null) });
          }
        }
        continue;
      }
      for (const choice of this.choicesOnPlay(seat, card)) {
        moves.push({ text: `${seat}:${card}${words(choice)}`, apply: () => this.place(seat, card, null, choice) });
      }
    }
    return moves;
  }

  // The choices of a card a player plays in front of themselves ([null]: played plain).
  choicesOnPlay(seat, card) {
    if (!isNow(card)) return [null];
    const hands = { ...this.hands, [seat]: this.hands[seat].filter((c) => c !== card) };
    const front = [...this.front, { card, before: seat, by: seat }];
    const choices = this.nowChoices(card, seat, seat, hands, front, this.law);
    return choices.length ? choices : [null];
  }

  pendingChoices(top) {
    const placement = this.front.find((p) => p.card === top.card);
    return this.nowChoices(top.card, top.seat, placement.before, this.hands, this.front, this.law);
  }

  // Every choice of an immediate card already in play ([]: its effect cannot apply).
  nowChoices(card, resolver, liesBefore, hands, front, law) {
    const others = (fn) => {
      const out = [];
      for (let seat = 1; seat <= this.players; seat++) if (seat !== resolver) fn(seat, out);
      return out;
    };
    if (card === LAW) return [["higher"], ["lower"]]; // the choice is made even if it binds nobody
    if (card === WRATH) {
      return front.filter((p) => p.before !== resolver && p.card !== card).map((p) => ["return", p.card]);
    }
    if (card === JEALOUSY) return front.filter((p) => p.card !== card).map((p) => ["swap", p.card]);
    if (card === BETRAYAL) {
      const choices = [];
      for (const p of front) {
        if (p.before === resolver || p.card === card) continue;
        const hand = [...hands[resolver], p.card].sort(ascending); // the card taken may go back
        const remaining = law && law.card === p.card ? null : law; // taking Law ends it
        for (const given of this.lawFilter(hand, remaining)) choices.push(["take", p.card, given]);
      }
      return choices;
    }
    if (card === SECRET) {
      return others((seat, out) => {
        if (hands[seat].length) out.push(["ask", seat]);
        for (const shown of hands[resolver]) out.push(["show", seat, shown]);
      });
    }
    if (isAbsolute(card)) {
      if (!hands[resolver].length) return [];
      return others((seat, out) => { if (hands[seat].length) out.push(["with", seat]); });
    }
    return [];
  }

  // -- playing --------------------------------------------------------------------------------

  play(text) {
    const wanted = normalize(text);
    const action = this.actions().find((move) => move.text === wanted);
    if (!action) throw new Error(`${text} is not legal here`);
    action.apply();
    this.advance();
  }

  // A card placed from hand: a turn, Dream's placement or Wrath's replacement.
  place(seat, card, to, choice) {
    const obligation = this.pending.length ? this.pending.pop().kind : null;
    this.take(seat, card);
    const before = to === null ? seat : to;
    this.front.push({ card, before, by: seat });
    if (obligation === null || obligation === "dream") this.played.add(seat);
    if (card === DREAM && obligation !== "dream") {
      if (to !== null) this.pending.push({ kind: "dream", seat: to, other: seat });
      return;
    }
    if (!isNow(card)) return;
    if (before === seat) this.resolveNow(card, seat, choice);
    else this.pending.push({ kind: "resolve", seat: before, card }); // it lies in front of them
  }

  resolveNow(card, resolver, choice) {
    if (!choice) return; // its effect cannot apply here
    const [keyword, a, b] = choice;
    if (keyword === "higher" || keyword === "lower") {
      this.law = { card, direction: keyword === "higher" ? 1 : -1 };
    } else if (keyword === "return") { // Wrath
      const placement = this.removeFromPlay(a);
      this.give(placement.before, a);
      this.pending.push({ kind: "replay", seat: placement.before, card: a });
    } else if (keyword === "take") { // Betrayal
      const placement = this.removeFromPlay(a);
      this.give(resolver, a);
      this.take(resolver, b);
      this.front.push({ card: b, before: placement.before, by: resolver });
      if (isNow(b) && b !== DREAM) this.pending.push({ kind: "resolve", seat: placement.before, card: b });
    } else if (keyword === "swap") { // Jealousy: the two cards change places
      const mine = this.front.find((p) => p.card === card);
      const theirs = this.front.find((p) => p.card === a);
      [mine.before, theirs.before] = [theirs.before, mine.before];
    } else if (keyword === "ask") { // Secret
      this.pending.push({ kind: "show", seat: a, other: resolver });
    } else if (keyword === "with") { // The Absolute
      this.pending.push({ kind: "exchange", seat: resolver, other: a });
    } // "show": seen, nothing changes
  }

  removeFromPlay(card) {
    const index = this.front.findIndex((p) => p.card === card);
    const [placement] = this.front.splice(index, 1);
    if (this.law && this.law.card === card) this.law = null; // Law left play: no constraint
    return placement;
  }

  exchange(a, x, b, y) {
    this.pending.pop();
    this.take(a, x); this.take(b, y); this.give(a, y); this.give(b, x);
  }

  luckDiscard(seat, card) {
    this.pending.pop();
    this.take(seat, card);
    this.luckVictim = [seat, card];
  }

  deal(card) {
    const seat = this.dealQueue.shift();
    this.deck = this.deck.filter((c) => c !== card);
    this.give(seat, card);
  }

  take(seat, card) { this.hands[seat] = this.hands[seat].filter((c) => c !== card); }

  give(seat, card) { this.hands[seat] = [...this.hands[seat], card].sort(ascending); }

  // Everything that needs no decision, until a decision, a deal or the end.
  advance() {
    for (;;) {
      if (this.over) return;
      if (this.phase === "deal") {
        if (this.dealQueue.length) return;
        this.finishDeal();
        continue;
      }
      // an obligation whose effect cannot apply does nothing
      let top = this.pending[this.pending.length - 1];
      while (top && top.kind === "resolve" && !this.pendingChoices(top).length) {
        this.pending.pop();
        top = this.pending[this.pending.length - 1];
      }
      if (this.phase === "bout") {
        if (this.pending.length || this.nextToPlay() !== null) return;
        this.endOfBout();
      } else if (this.phase === "luck") {
        if (this.pending.length) return;
        this.checkRound();
      }
    }
  }

  finishDeal() {
    if (this.teams === null) {
      // rules 000, "Setup": teams from the Absolutes; the highest Absolute leads
      const absoluteOf = {};
      for (let seat = 1; seat <= this.players; seat++) absoluteOf[seat] = this.hands[seat][0];
      const ranked = Object.keys(absoluteOf).map(Number).sort((a, b) => absoluteOf[a] - absoluteOf[b]);
      let teams;
      if (this.players === 6) teams = [0, 1, 2].map((i) => [ranked[i], ranked[5 - i]].sort(ascending));
      else {
        const pair = [ranked[0], ranked[ranked.length - 1]].sort(ascending);
        teams = [pair, ranked.filter((s) => !pair.includes(s)).sort(ascending)];
      }
      this.teams = teams.sort((x, y) => x[0] - y[0]);
      this.roundsWon = this.teams.map(() => 0);
      this.box = [...this.deck];
      this.leader = ranked[ranked.length - 1];
      this.deck = [];
      for (let card = 1; card < 30; card++) this.deck.push(card);
      this.dealQueue = this.queue(1);
      return;
    }
    this.phase = "bout";
    this.startBout(this.leader);
  }

  // One card at a time, seat after seat, until each hand has its size (rules 000, "Setup").
  queue(have) {
    const sizes = {};
    for (let seat = 1; seat <= this.players; seat++) {
      const team = this.teamOf(seat);
      sizes[seat] = this.players === 4 ? 5 : this.players === 6 ? 4 : team.length === 3 ? 5 : 4;
    }
    const order = [];
    for (let step = 0; step < 5; step++) {
      for (let seat = 1; seat <= this.players; seat++) if (have + step < sizes[seat]) order.push(seat);
    }
    return order;
  }

  // How a Bout Is Resolved: the winner and every end effect, all at once.
  endOfBout() {
    const cards = this.front.map((p) => p.card);
    let winning;
    if (cards.includes(MIRROR)) winning = Math.min(...cards);
    else {
      const ordered = [...cards].sort((a, b) => b - a);
      winning = cards.includes(SADNESS) && ordered.length >= 2 ? ordered[1] : ordered[0];
    }
    const byCard = Object.fromEntries(this.front.map((p) => [p.card, p]));
    const winner = byCard[winning].before;
    const discarded = new Set([winning]);
    const discard = (target) => { if (target !== FEAR || target === winning) discarded.add(target); };
    for (const source of cards) {
      if (EXTREME[source]) {
        const [colour, which] = EXTREME[source];
        const candidates = cards.filter((c) => hasColour(c, colour));
        if (candidates.length) {
          discard(which === "highest" ? Math.max(...candidates) : Math.min(...candidates));
        }
      } else if (source === WINTER) {
        cards.filter((c) => hasColour(c, "yellow")).forEach(discard);
      } else if (SELF_IF[source]) {
        const [condition, colour] = SELF_IF[source];
        const others = cards.filter((c) => c !== source);
        const hit = condition === "other" ? others.some((c) => hasColour(c, colour))
          : condition === "alone" ? !others.some((c) => hasColour(c, colour))
            : condition === "lowest" ? source === Math.min(...cards)
              : others.some(isAbsolute);
        if (hit) discarded.add(source);
      }
    }
    let nextLeader = winner;
    if (cards.includes(PRIDE)) nextLeader = (byCard[PRIDE].before % this.players) + 1;
    this.outcome = { winner, winning, discarded, nextLeader };
    this.front = this.front.filter((p) => !discarded.has(p.card));
    this.phase = "luck";
    // Luck: its player discards a card from hand (before the cards go back), never Fear
    if (discarded.has(LUCK)) {
      const seat = byCard[LUCK].before;
      if (this.hands[seat].some((c) => c !== FEAR)) this.pending.push({ kind: "luck", seat });
    }
  }

  // The cards not discarded go back to the hand they lie in front of; then the round end.
  checkRound() {
    for (const p of this.front) this.give(p.before, p.card);
    this.front = [];
    const { winner, discarded, nextLeader } = this.outcome;
    const all = [...discarded];
    if (this.luckVictim) all.push(this.luckVictim[1]);
    let roundWinner = null;
    if (this.luckVictim && this.hands[this.luckVictim[0]].length === 0) {
      roundWinner = this.luckVictim[0]; // 0 cards through Luck wins the round
    } else {
      for (let seat = 1; seat <= this.players; seat++) {
        const hand = this.hands[seat];
        if (hand.length === 1 && (roundWinner === null || hand[0] > this.hands[roundWinner][0])) {
          roundWinner = seat;
        }
      }
    }
    const hands = {};
    for (let seat = 1; seat <= this.players; seat++) hands[String(seat)] = [...this.hands[seat]];
    this.last = {
      bout_winner: winner,
      discarded: all.sort(ascending),
      hands,
      next_leader: roundWinner === null ? nextLeader : roundWinner,
      round_winner: roundWinner,
      round_winner_team: roundWinner === null ? null : this.teamOf(roundWinner),
    };
    this.phase = "bout";
    if (this.scope === "bout") return this.end(winner);
    if (roundWinner === null) return this.startBout(nextLeader);
    const team = this.teams.indexOf(this.teamOf(roundWinner));
    this.roundsWon[team] += 1;
    if (this.scope === "round" || this.roundsWon[team] >= 2) return this.end(roundWinner);
    // rules 000, "End of a Round": every card but the boxed Absolutes shuffled and dealt again
    for (let seat = 1; seat <= this.players; seat++) this.hands[seat] = [];
    this.startBout(roundWinner);
    this.phase = "deal";
    this.deck = [];
    for (let card = 1; card <= 35; card++) if (!this.box.includes(card)) this.deck.push(card);
    this.dealQueue = this.queue(0);
  }

  end(winnerSeat) {
    this.over = true;
    this.winnerSeat = winnerSeat;
  }

  state() {
    if (!this.last) throw new Error("no bout has been resolved yet");
    return {
      ...this.last, rounds_won: [...this.roundsWon], over: this.over,
      winner_team: this.over && this.winnerSeat !== null ? this.teamOf(this.winnerSeat) : null,
    };
  }
}

// The words of a choice in the canonical notation (docs/omens-notation.md).
function words(choice) {
  if (!choice) return "";
  const [keyword, a, b] = choice;
  if (keyword === "take") return ` take ${a} give ${b}`;
  if (keyword === "show") return ` show ${a} ${b}`;
  return a === undefined ? ` ${keyword}` : ` ${keyword} ${a}`;
}

// A joint action's parts in seat order ("3:gives 5 & 1:gives 9" -> "1:gives 9 & 3:gives 5").
function normalize(text) {
  if (!text.includes("&")) return text.trim();
  return text.split("&").map((part) => part.trim())
    .sort((x, y) => Number(x.split(":")[0]) - Number(y.split(":")[0])).join(" & ");
}

// -- the protocol: one JSON request per line in, one JSON answer per line out -------------------

let game = null;

function handle(request) {
  switch (request.cmd) {
    case "hello": // the settings are built in: the runner plays the vectors that hold under them
      return {
        name: "example-omens-engine (Node.js)", games: ["omens"],
        options: { omens: { preset: "rulebook" } },
      };
    case "setup":
      if (request.game !== "omens") throw new Unsupported(`the game ${request.game}`);
      game = new Omens(request.options, request.position);
      return {};
    case "legal":
      return { to_act: game.toAct(), legal: game.actions().map((move) => move.text) };
    case "play":
      game.play(request.action);
      return {};
    case "state":
      return { state: game.state() };
    case "quit":
      return {};
    default:
      throw new Error(`unknown cmd ${request.cmd}`);
  }
}

const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  if (!line.trim()) return;
  let request = {};
  let answer;
  try {
    request = JSON.parse(line);
    answer = { id: request.id, ok: true, ...handle(request) };
  } catch (error) {
    answer = { id: request.id ?? null, ok: false, error: error.message };
    if (error instanceof Unsupported) answer.unsupported = true;
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
  if (request.cmd === "quit") process.exit(0);
});
