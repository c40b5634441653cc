// The position editor: players, teams, leader, preset and rule options, and the hands dealt
// by clicking (or at random with a seed, or as at a game start). The server checks the
// position exactly as the command line reads a file, and says what is wrong in the same words.
import { post } from "./api.js";
import { cardEl, el, state } from "./board.js";

const $ = (id) => document.getElementById(id);

function defaultTeams(players) {
  if (players === 4) return [1, 2, 1, 2];
  if (players === 5) return [1, 2, 2, 1, 2];
  return [1, 2, 3, 1, 2, 3];
}

export class Editor {
  constructor(options, onPlay) {
    this.options = options;
    this.onPlay = onPlay;
    this.reset(4);
    $("ed-scope").replaceChildren(...options.scopes.map((s) => el("option", { value: s, text: s })));
    $("ed-preset").replaceChildren(...Object.keys(options.presets).map((p) => el("option", { value: p, text: p })));
    $("ed-options").replaceChildren(...options.options.map((spec) => el("label", { title: spec.summary },
      spec.name,
      el("select", { "data-option": spec.name, onchange: (e) => this.setOption(spec.name, e.target.value) },
        el("option", { value: "", text: "(preset)" }),
        Object.entries(spec.settings).map(([name, meaning]) => el("option", { value: name, title: meaning, text: name }))))));
    $("ed-players").onchange = (e) => { this.reset(Number(e.target.value)); this.draw(); };
    $("ed-phase").onchange = (e) => { this.phase = e.target.value; this.draw(); };
    $("ed-scope").onchange = (e) => { this.scope = e.target.value; };
    $("ed-preset").onchange = (e) => { this.preset = e.target.value; };
    $("ed-leader").onchange = (e) => { this.leader = Number(e.target.value) || null; };
    $("ed-title").oninput = (e) => { this.title = e.target.value; };
    $("ed-random").onclick = () => this.deal("round-start");
    $("ed-start").onclick = () => this.deal("game-start");
    $("ed-clear").onclick = () => { this.hands = this.emptyHands(); this.draw(); };
    $("ed-play").onclick = () => this.play();
    this.draw();
  }

  emptyHands() {
    return Array.from({ length: this.players }, () => []);
  }

  reset(players) {
    this.players = players;
    this.phase = "bout";
    this.scope = "round";
    this.preset = "rulebook";
    this.rules = {};
    this.teams = defaultTeams(players);
    this.leader = 1;
    this.title = "";
    this.hands = this.emptyHands();
    this.active = 1;
    this.roundsWon = null;
    this.box = null;
  }

  setOption(name, value) {
    if (value) this.rules[name] = value;
    else delete this.rules[name];
  }

  teamCount() { return this.players === 6 ? 3 : 2; }

  load(tables) {
    if (!tables) return;
    this.reset(tables.players || 4);
    this.phase = tables.phase || "bout";
    this.scope = tables.scope || "round";
    this.preset = tables.preset || "rulebook";
    this.rules = { ...(tables.rules || {}) };
    this.title = tables.title || "";
    if (tables.teams) {
      tables.teams.forEach((team, index) => { for (const seat of team) this.teams[seat - 1] = index + 1; });
    }
    this.leader = tables.bout && tables.bout.leader ? tables.bout.leader : null;
    this.hands = Array.from({ length: this.players }, (_, i) => [...((tables.hands || {})[String(i + 1)] || [])]);
    this.roundsWon = tables.rounds_won || null;
    this.box = tables.box || null;
    this.draw();
  }

  tables() {
    const data = { game: "omens", players: this.players };
    if (this.title) data.title = this.title;
    if (this.preset !== "rulebook") data.preset = this.preset;
    if (this.scope !== "round") data.scope = this.scope;
    if (this.phase !== "bout") data.phase = this.phase;
    if (this.phase !== "game-start") {
      const teams = [];
      for (let t = 1; t <= this.teamCount(); t++) {
        const seats = this.teams.map((team, i) => (team === t ? i + 1 : 0)).filter(Boolean);
        if (seats.length) teams.push(seats);
      }
      data.teams = teams;
      if (this.roundsWon && this.roundsWon.length === teams.length) data.rounds_won = this.roundsWon;
    }
    if (this.box) data.box = this.box;
    if (Object.keys(this.rules).length) data.rules = { ...this.rules };
    data.hands = Object.fromEntries(this.hands.map((hand, i) => [String(i + 1), [...hand].sort((a, b) => a - b)]));
    data.bout = {};
    if (this.leader && this.phase !== "game-start") data.bout.leader = this.leader;
    return data;
  }

  owner(card) {
    return this.hands.findIndex((hand) => hand.includes(card));
  }

  toggle(card) {
    const owner = this.owner(card);
    if (owner >= 0) this.hands[owner] = this.hands[owner].filter((c) => c !== card);
    if (owner !== this.active - 1) this.hands[this.active - 1].push(card);
    this.box = this.box ? this.box.filter((c) => c !== card) : null;
    this.message("", "");
    this.draw();
  }

  message(text, kind) {
    const box = $("ed-message");
    box.textContent = text;
    box.className = `message ${kind}`;
  }

  async deal(phase) {
    this.message("Dealing…", "");
    try {
      const seed = Number($("ed-seed").value) || 0;
      const reply = await post("/api/omens/deal", {
        players: this.players, seed, phase, preset: this.preset, rules: this.rules,
      });
      const rules = this.rules;
      this.load(reply.position);
      this.rules = { ...rules, ...(reply.position.rules || {}) };
      this.draw();
      this.message(`Dealt: seed ${seed}, ${phase === "game-start" ? "as at a game start (one Absolute each; teams, leader and box from them)" : "as at a round start"}.`, "good");
    } catch (error) { this.message(error.message, "bad"); }
  }

  async play() {
    try {
      const reply = await post("/api/omens/position", { position: this.tables() });
      this.message("This position is possible.", "good");
      this.onPlay(reply.toml);
    } catch (error) { this.message(error.message, "bad"); }
  }

  draw() {
    $("ed-players").value = String(this.players);
    $("ed-phase").value = this.phase;
    $("ed-scope").value = this.scope;
    $("ed-preset").value = this.preset;
    $("ed-title").value = this.title;
    for (const select of document.querySelectorAll("#ed-options select")) {
      select.value = this.rules[select.dataset.option] || "";
    }
    const derived = this.phase === "game-start";
    $("ed-leader").replaceChildren(
      el("option", { value: "", text: derived ? "(the highest Absolute)" : "(choose)" }),
      ...Array.from({ length: this.players }, (_, i) => el("option", { value: i + 1, text: `seat ${i + 1}` })));
    $("ed-leader").value = derived || !this.leader ? "" : String(this.leader);
    $("ed-leader").disabled = derived;
    const teams = $("ed-teams");
    teams.replaceChildren(el("span", { class: "muted", text: derived ? "Teams: from the Absolutes" : "Teams:" }));
    if (!derived) {
      for (let seat = 1; seat <= this.players; seat++) {
        teams.append(el("label", {}, `seat ${seat}`, el("select", {
          "data-team-seat": seat,
          onchange: (e) => { this.teams[seat - 1] = Number(e.target.value); this.draw(); },
        }, Array.from({ length: this.teamCount() }, (_, t) => el("option", { value: t + 1, text: `team ${t + 1}`, selected: this.teams[seat - 1] === t + 1 })))));
      }
    }
    const hands = $("ed-hands");
    hands.replaceChildren();
    for (let seat = 1; seat <= this.players; seat++) {
      const hand = this.hands[seat - 1];
      hands.append(el("div", {
        class: `ed-hand team-${derived ? 1 : this.teams[seat - 1]}` + (this.active === seat ? " active" : ""),
        "data-ed-seat": seat, onclick: () => { this.active = seat; this.draw(); },
      }, el("div", { class: "seat-head" }, el("b", { text: `Seat ${seat}` }),
        el("span", { class: "tag", text: `${hand.length} card(s)${this.active === seat ? " · dealing here" : ""}` })),
      el("div", { class: "zone" }, [...hand].sort((a, b) => a - b).map((card) => cardEl(card, {
        small: true, token: `ed:${card}`, onclick: (e) => { e.stopPropagation(); this.active = seat; this.toggle(card); },
      })))));
    }
    const palette = $("ed-palette");
    palette.replaceChildren(...[...state.cards.keys()].map((card) => {
      const node = cardEl(card, { small: true, token: `palette:${card}`, onclick: () => this.toggle(card) });
      if (this.owner(card) >= 0) node.classList.add("dealt");
      node.title += this.owner(card) >= 0 ? ` — in seat ${this.owner(card) + 1}'s hand` : "";
      return node;
    }));
  }
}
