// The Omen board: the three cities, hands, coins, Rewards and Feats, the legal actions with the
// explained trace, and the endgame solver's answer.
import { get, post } from "./api.js";
import { el, renderSteps } from "./board.js";
import { PositionLine } from "./positionline.js";

const $ = (id) => document.getElementById(id);

function chips(items, cls = "") {
  if (!items || !items.length) return el("span", { class: "muted", text: "—" });
  return el("div", { class: "chips" }, items.map((item) => el("span", { class: `chip ${cls}`, text: item })));
}

// The Omen board: the state of play, the three cities and both seats.
export function renderOmenBoard(root, v) {
  const seat = (s) => el("div", { class: "panel", "data-omen-seat": s },
    el("h2", { text: `Seat ${s}${v.active_player === Number(s) ? " · active" : ""}${v.to_act === Number(s) ? " · to act" : ""}` }),
    el("div", { class: "kv" }, el("b", { text: "coins " }), String(v.coins[s]), el("b", { text: " · VP " }), String(v.scores[s]),
      el("b", { text: " · VP tokens " }), String(v.vp_tokens[s])),
    el("div", { class: "zone-label", text: "hand" }), chips(v.hands[s], `s${s}`),
    el("div", { class: "zone-label", text: "Rewards in hand / unused / used" }),
    chips([...v.rewards[s].in_hand.map((r) => `${r} (hand)`), ...v.rewards[s].unused, ...v.rewards[s].used.map((r) => `${r} (used)`)]),
    el("div", { class: "zone-label", text: "Feats" }), chips([...v.feats[s], ...v.feats_rotated[s].map((f) => `${f} (rotated)`)]));
  const cities = el("div", { class: "cities" }, v.cities.map((c) => el("div", {
    class: "city" + (c.war_torn ? " war-torn" : ""), "data-city": c.city,
  }, el("h3", { text: `City ${c.city}${c.war_torn ? " · war-torn" : ""}${c.relic ? ` · relic ${c.relic} (seat ${c.relic_seat})` : ""}` }),
  el("div", { class: "zone-label", text: "Rewards (top first)" }), chips(c.rewards),
  el("div", { class: "zone-label", text: "seat 1" }), chips(c.seat1, "s1"),
  el("div", { class: "zone-label", text: "seat 2" }), chips(c.seat2, "s2"))));
  const head = el("div", { class: "panel omen-head" },
    el("div", { class: "kv" }, `Turn ${v.turn} · step ${v.step} · seat ${v.active_player} active · `,
      v.game_over ? el("b", { text: v.winner ? `game over: seat ${v.winner} wins` : "game over: shared victory" })
        : `to act: ${v.to_act === "chance" ? "chance" : "seat " + v.to_act}`,
      ` · supply ${v.supply} coins · deck ${v.deck.shuffled} shuffled${v.deck.top.length ? ", top " + v.deck.top.join(", ") : ""} · discard ${v.deck.discard.length}`));
  root.replaceChildren(head, cities, el("div", { class: "omen-seats" }, seat("1"), seat("2")));
}

// The legal actions as buttons; ``onAction`` null: shown, not clickable.
export function renderOmenActions(root, v, onAction, listId, prompt) {
  const actions = el("div", { class: "actions", id: listId }, v.legal.map((text) => el("button", {
    "data-action": text, disabled: !onAction, onclick: onAction ? () => onAction(text) : undefined,
  }, el("code", { text }))));
  root.replaceChildren(el("div", { class: "prompt", text: v.game_over ? "The game is over."
    : prompt || `Legal actions (${v.legal.length}):` }), actions);
}

export class OmenBoard {
  constructor() {
    this.examples = null;
    this.toml = null;
    this.moves = [];
    $("omen-examples").onchange = (e) => this.loadExample(e.target.value);
    $("omen-import").onclick = () => import("./app.js").then(({ openDialog }) =>
      openDialog("Import an Omen position (TOML)", "", (text) => this.set(text, [])));
    $("omen-undo").onclick = () => this.set(this.toml, this.moves.slice(0, -1));
    $("omen-solve").onclick = () => this.solve();
    this.line = new PositionLine("omen", "omen-text", (toml) => this.set(toml, []), (error) => {
      $("omen-status").textContent = error.message;
    });
  }

  // Open the Omen tab on the example ``name``, on the position file ``toml``, or (neither) on
  // the position shown before, the first example the first time.
  async open(name, toml) {
    if (!this.examples) {
      this.examples = await get("/api/puzzles?game=omen");
      $("omen-examples").replaceChildren(...this.examples.map((e) => el("option", { value: e.name, text: e.title })));
      if (!name && !toml && this.examples.length) await this.loadExample(this.examples[0].name);
    }
    if (toml) {
      await this.set(toml, []);
      return;
    }
    if (name) {
      $("omen-examples").value = name;
      await this.loadExample(name);
    }
  }

  async loadExample(name) {
    const puzzle = await get(`/api/puzzles/${name}`);
    await this.set(puzzle.toml, []);
  }

  async set(toml, moves) {
    try {
      const view = await post("/api/omen/board", { toml, moves });
      this.toml = toml;
      this.moves = moves;
      this.view = view;
      $("omen-status").textContent = "";
      $("omen-answer").textContent = "Ask the solver for the best play from here.";
      this.draw();
      this.line.show({ toml, moves });
      return true;
    } catch (error) {
      $("omen-status").textContent = error.message;
      return false;
    }
  }

  draw() {
    const v = this.view;
    renderOmenBoard($("omen-board"), v);
    renderOmenActions($("omen-actions"), v, (text) => this.set(this.toml, [...this.moves, text]), "omen-legal");
    const trace = $("omen-trace");
    trace.replaceChildren(
      v.setup.length ? el("div", {}, el("div", { class: "move", text: "On reading the position" }), renderSteps(v.setup)) : null,
      ...v.history.map((entry, i) => el("div", {}, el("div", { class: "move" }, `${i + 1}. `, el("code", { text: entry.move }),
        el("span", { class: "muted", text: ` ${entry.by}${entry.from_file ? " (in the file)" : ""}` })), renderSteps(entry.steps))));
    trace.scrollTop = trace.scrollHeight;
    $("omen-undo").disabled = !this.moves.length;
  }

  async solve() {
    const box = $("omen-answer");
    box.textContent = "Solving…";
    try {
      const r = await post("/api/omen/endgame", { toml: this.toml, moves: this.moves, seconds: 20 });
      const seat = r.team ? r.team[0] : "?";
      box.replaceChildren(
        el("div", { id: "omen-verdict", class: "verdict-line" },
          r.status === "solved" ? `seat ${seat}: ${r.value === "1" ? "wins" : r.value === "0" ? "loses" : "value " + r.value}` : `unknown (${r.lower ?? "?"}…${r.upper ?? "?"})`),
        r.endgame && r.endgame.margin ? el("div", { class: "kv", text: `VP margin: ${r.endgame.margin.status === "solved" ? r.endgame.margin.value : "unknown"}` }) : null,
        el("div", { class: "kv" }, el("b", { text: "best: " }), (r.best_actions || []).join(", ") || "—"),
        el("div", { class: "kv" }, el("b", { text: "line: " }), (r.principal_variation || []).join(" · ") || "—"),
        el("div", { class: "muted", text: `${r.nodes} nodes, ${r.seconds} s` }),
        r.details ? el("div", { class: "comments", id: "omen-details", text: r.details.join("\n") }) : null);
    } catch (error) {
      box.textContent = error.message;
    }
  }
}
