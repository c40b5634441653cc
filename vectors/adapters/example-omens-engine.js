#!/usr/bin/env node
// A minimal example of an engine behind the omen-solver vector protocol (docs/vectors.md),
// in plain Node.js with no npm package. Run the suite against it with:
//
//   omen-solver vectors check vectors --engine "node vectors/adapters/example-omens-engine.js"
//
// The protocol part (reading requests, answering one JSON line each) is at the bottom and is
// what an adapter for your own engine keeps; the rest is a small Omens engine standing in for
// yours. It plays only what it needs to show the protocol at work: Omens bouts and rounds under
// the rulebook's settings, with the cards resolved at the end of the bout and The Absolute's
// secret exchange. For any other vector it answers "unsupported", and the runner skips it.
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
const FEAR = 12, LUCK = 13, MIRROR = 14, PRIDE = 22, SADNESS = 26, WINTER = 27;
const NOW = new Set([15, 21, 23, 24, 28, 29]); // Law, Dream, Jealousy, Secret, Wrath, Betrayal
const isAbsolute = (card) => card >= 30 && card <= 35;
const hasColour = (card, colour) => colour === "any" || COLOURS[card].includes(colour);

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

class Omens {
  constructor(options, position) {
    for (const [name, value] of Object.entries(options.settings || {})) {
      if (RULEBOOK[name] !== value) throw new Unsupported(`option ${name} = ${value}`);
    }
    if (position.phase === "new-game") throw new Unsupported("a new game (chance deals)");
    if (!["bout", "round"].includes(position.scope)) {
      throw new Unsupported(`scope ${position.scope}`);
    }
    this.players = position.players;
    this.teams = position.teams;
    this.hands = {};
    for (let seat = 1; seat <= this.players; seat++) {
      this.hands[seat] = [...position.hands[String(seat)]].sort((a, b) => a - b);
      for (const card of this.hands[seat]) {
        if (NOW.has(card)) throw new Unsupported(`card ${card} (an immediate effect)`);
      }
    }
    this.scope = position.scope;
    this.roundsWon = [...position.rounds_won];
    this.leader = position.leader;
    this.last = null; // the last bout's summary
    this.over = false;
    this.winner = null;
    this.startBout(this.leader);
  }

  startBout(leader) {
    this.leader = leader;
    this.played = new Set();
    this.front = []; // {card, before, by}, in the order placed
    this.pending = null; // {kind: "exchange", a, b} or {kind: "luck", seat}
  }

  teamOf(seat) { return this.teams.find((team) => team.includes(seat)); }

  nextToPlay() {
    for (let step = 0; step < this.players; step++) {
      const seat = ((this.leader - 1 + step) % this.players) + 1;
      if (!this.played.has(seat) && this.hands[seat].length > 0) return seat;
    }
    return null;
  }

  toAct() {
    if (this.over) return null;
    if (this.pending && this.pending.kind === "exchange") {
      return [this.pending.a, this.pending.b].sort((x, y) => x - y);
    }
    if (this.pending) return this.pending.seat;
    return this.nextToPlay();
  }

  legal() {
    if (this.over) return [];
    const pending = this.pending;
    if (pending && pending.kind === "exchange") {
      const [a, b] = [pending.a, pending.b].sort((x, y) => x - y);
      const moves = [];
      for (const x of this.hands[a]) {
        for (const y of this.hands[b]) moves.push(`${a}:gives ${x} & ${b}:gives ${y}`);
      }
      return moves;
    }
    if (pending) {
      return this.hands[pending.seat].filter((c) => c !== FEAR)
        .map((c) => `${pending.seat}:discards ${c}`);
    }
    const seat = this.nextToPlay();
    const moves = [];
    for (const card of this.hands[seat]) {
      if (!isAbsolute(card)) { moves.push(`${seat}:${card}`); continue; }
      // The Absolute: exchange a card with a player who has one (if any card is left to give)
      const left = this.hands[seat].filter((c) => c !== card);
      const targets = [];
      for (let other = 1; other <= this.players; other++) {
        if (other !== seat && this.hands[other].length > 0) targets.push(other);
      }
      if (left.length === 0 || targets.length === 0) moves.push(`${seat}:${card}`);
      else for (const other of targets) moves.push(`${seat}:${card} with ${other}`);
    }
    return moves;
  }

  play(text) {
    const normalized = text.includes("&")
      ? text.split("&").map((p) => p.trim()).sort().join(" & ") : text.trim();
    if (!this.legal().includes(normalized)) throw new Error(`${text} is not legal here`);
    const pending = this.pending;
    if (pending && pending.kind === "exchange") {
      const gifts = normalized.split(" & ").map((part) => part.split(":gives ").map(Number));
      const [[a, x], [b, y]] = gifts;
      this.take(a, x); this.take(b, y); this.give(a, y); this.give(b, x);
      this.pending = null;
    } else if (pending) {
      const card = Number(normalized.split(":discards ")[1]);
      this.take(pending.seat, card);
      this.luckVictim = [pending.seat, card];
      this.pending = null;
      this.finishBout();
      return;
    } else {
      const [head, rest] = normalized.split(":");
      const seat = Number(head);
      const words = rest.split(" ");
      const card = Number(words[0]);
      this.take(seat, card);
      this.front.push({ card, before: seat, by: seat });
      this.played.add(seat);
      if (words[1] === "with") this.pending = { kind: "exchange", a: seat, b: Number(words[2]) };
    }
    if (!this.pending && this.nextToPlay() === null) this.endBout();
  }

  take(seat, card) { this.hands[seat] = this.hands[seat].filter((c) => c !== card); }

  give(seat, card) { this.hands[seat] = [...this.hands[seat], card].sort((a, b) => a - b); }

  // How a Bout Is Resolved: the winner and every end effect, all at once.
  endBout() {
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
    this.outcome = { winner, discarded, nextLeader };
    this.luckVictim = null;
    if (discarded.has(LUCK)) {
      const seat = byCard[LUCK].before;
      if (this.hands[seat].some((c) => c !== FEAR)) {
        this.pending = { kind: "luck", seat };
        return;
      }
    }
    this.finishBout();
  }

  // Luck's discard is taken; cards not discarded go back to the hand they lie in front of.
  finishBout() {
    const { winner, discarded, nextLeader } = this.outcome;
    for (const p of this.front) if (!discarded.has(p.card)) this.give(p.before, p.card);
    const all = [...discarded];
    if (this.luckVictim) all.push(this.luckVictim[1]);
    let roundWinner = null;
    if (this.luckVictim && this.hands[this.luckVictim[0]].length === 0) {
      roundWinner = this.luckVictim[0];
    } else {
      let best = null;
      for (let seat = 1; seat <= this.players; seat++) {
        const hand = this.hands[seat];
        if (hand.length === 1 && (best === null || hand[0] > this.hands[best][0])) best = seat;
      }
      roundWinner = best;
    }
    const hands = {};
    for (let seat = 1; seat <= this.players; seat++) hands[String(seat)] = [...this.hands[seat]];
    this.last = {
      bout_winner: winner,
      discarded: all.sort((a, b) => a - b),
      hands,
      next_leader: roundWinner === null ? nextLeader : roundWinner,
      round_winner: roundWinner,
      round_winner_team: roundWinner === null ? null : this.teamOf(roundWinner),
    };
    if (this.scope === "bout") {
      this.over = true;
      this.winner = this.teamOf(winner);
    } else if (roundWinner !== null) {
      this.roundsWon[this.teams.indexOf(this.teamOf(roundWinner))] += 1;
      this.over = true;
      this.winner = this.teamOf(roundWinner);
    } else {
      this.startBout(nextLeader);
      if (Object.values(this.hands).every((hand) => hand.length === 0)) this.over = true;
    }
  }

  state() {
    if (!this.last) throw new Error("no bout has been resolved yet");
    return { ...this.last, rounds_won: this.roundsWon, over: this.over, winner_team: this.winner };
  }
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
      return { to_act: game.toAct(), legal: game.legal() };
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
