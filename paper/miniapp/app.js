// tourbot's Mini App: the organiser's console and the player's form (docs/guide.en.md#console).
// Every request carries Telegram's launch data (Authorization: tma <initData>); every action
// is a chat command the server runs as if typed in the group, so this page only shows the
// event and sends what was tapped. Words come from the server in the chat's language.
"use strict";

const tg = window.Telegram && window.Telegram.WebApp;
const query = new URLSearchParams(location.search);
const start = (tg && tg.initDataUnsafe && tg.initDataUnsafe.start_param) || query.get("startapp") || "";
let state = null, version = null, L = {}, skew = 0, tab = null, standings = null, standingsAt = null;

// --- small helpers ---------------------------------------------------------------------
function t(key, vars) {
  let text = L[key] !== undefined ? L[key] : key;
  for (const [k, v] of Object.entries(vars || {})) text = text.split("{" + k + "}").join(String(v));
  return text;
}
function h(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === false || v === null || v === undefined) continue;
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}
function requestId() {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
async function api(path, body) {
  const options = {headers: {Authorization: "tma " + (tg ? tg.initData : "")}, cache: "no-store"};
  if (body !== undefined) {
    options.method = "POST";
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify({start, ...body});
  }
  const answer = await fetch(path, options);
  let data = {};
  try { data = await answer.json(); } catch (e) { /* an empty or HTML answer */ }
  return {status: answer.status, data};
}
document.getElementById("toast").addEventListener("click", e => { e.currentTarget.hidden = true; });
function toast(text, bad) {
  const box = document.getElementById("toast");
  box.textContent = text;
  box.className = bad ? "bad" : "";
  box.hidden = !text;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { box.hidden = true; }, bad ? 6000 : 4000);
}
function fatal(text) {
  document.getElementById("main").replaceChildren(h("p", {class: "fatal", id: "fatal"}, text));
  document.getElementById("tabs").replaceChildren();
}
function nameOf(user) {
  for (const table of state.tables) for (const s of table.seats) if (s.user === user) return s.name;
  for (const p of (state.people || {}).players || []) if (p.user === user) return p.name;
  return String(user);
}

// --- sending ---------------------------------------------------------------------------
async function send(action, fields) {
  const {status, data} = await api("/app/api/action", {action, fields: fields || {}, request: requestId()});
  closeSheet();
  if (status === 200) toast(data.said && data.said.length ? data.said.join("\n\n") : t("done"));
  else if (status === 202) toast(t("queued"));
  else toast(data.refusal || data.text || data.error || String(status), true);
  await refresh();
  return status === 200;
}
function ask(question, action, fields) {
  openSheet(h("p", {}, question), h("div", {class: "actions"},
    h("button", {class: "danger", "data-testid": "yes", onclick: () => send(action, fields)}, t("yes")),
    h("button", {class: "plain", onclick: closeSheet}, t("close"))));
}

// --- the sheet (a dialog from the bottom) -----------------------------------------------
function openSheet(...content) {
  document.getElementById("sheet-body").replaceChildren(...content);
  document.getElementById("sheet").hidden = false;
}
function closeSheet() {
  const sheet = document.getElementById("sheet");
  if (sheet.hidden) return;
  sheet.hidden = true;
  if (state) render();  // what changed while it was open
}
document.getElementById("sheet").addEventListener("click", e => { if (e.target.id === "sheet") closeSheet(); });

// A deadline: the date-time picker, read in the event's zone (24-hour), or the chat's words.
function whenInput(id) {
  return h("div", {},
    h("label", {for: id}, t("when-hint", {zone: state.event.zone})),
    h("input", {id, type: "datetime-local", "data-testid": "when"}),
    h("label", {for: id + "-words"}, t("when-words")),
    h("input", {id: id + "-words", type: "text", maxlength: 100, placeholder: t("when-example")}));
}
function whenValue(id) {
  return document.getElementById(id).value || document.getElementById(id + "-words").value.trim();
}
function deadlineSheet(title, action, extra, optional) {
  openSheet(h("h2", {}, title), whenInput("when"), h("div", {class: "actions"},
    h("button", {"data-testid": "send", onclick: () => {
      const when = whenValue("when");
      if (!when && !optional) return toast(t("when-missing"), true);
      send(action, {...extra, when});
    }}, t("send")),
    h("button", {class: "plain", onclick: closeSheet}, t("close"))));
}

// --- the result form, shaped by the game's steps ----------------------------------------
// Each hand holds the values tapped for each step; the engine checks the result as it is
// filled in (/app/api/check), with the chat's refusal texts.
function resultSheet(table, mode) {
  const form = state.form[String(table.seats.length)] || {steps: [], example: ""};
  const hands = [{}];
  let typed = "", checked = null, timer = null;
  const body = h("div", {});
  const verdict = h("div", {class: "check", "data-testid": "verdict"}, "…");
  const submit = h("button", {"data-testid": "submit", disabled: true, onclick: () => {
    const fields = {table: table.number};
    if (typed) fields.result = typed; else fields.hands = hands;
    send(mode === "fix" ? "fix" : "report", fields);
  }}, mode === "fix" ? t("fix") : t("submit"));

  function seatName(letter) {
    const seat = table.seats.find(s => s.seat === letter);
    return seat ? `${letter} ${seat.name}` : letter;
  }
  function complete() {
    if (typed) return true;
    if (!form.steps.length) return false;
    return hands.every(hand => form.steps.every(step =>
      step.multi || (step.per_seat ? (hand[step.name] || []).filter(v => v !== undefined).length === table.seats.length
                                  : (hand[step.name] || []).length === 1)));
  }
  function check() {
    clearTimeout(timer);
    submit.disabled = true;
    if (!complete()) { verdict.className = "check"; verdict.textContent = t("fill-in"); return; }
    verdict.className = "check"; verdict.textContent = t("checking");
    timer = setTimeout(async () => {
      const request = {table: table.number, mode};
      if (typed) request.result = typed; else request.hands = hands;
      const {status, data} = await api("/app/api/check", request);
      if (status !== 200) { verdict.className = "check bad"; verdict.textContent = data.text || data.error; return; }
      checked = data;
      verdict.className = data.ok ? "check ok" : "check bad";
      verdict.textContent = data.ok ? `${data.text}\n${data.scores}` : data.reason;
      submit.disabled = !data.ok;
    }, 200);
  }
  function stepBlock(hand, step) {
    const values = hand[step.name] = hand[step.name] || [];
    if (step.per_seat) {
      return table.seats.map((seat, i) => h("div", {},
        h("label", {for: `s-${step.name}-${i}`}, step.prompts[i] || seat.seat),
        h("select", {id: `s-${step.name}-${i}`, "data-step": step.name, "data-seat": seat.seat,
                     onchange: e => { values[i] = e.target.value || undefined; check(); }},
          h("option", {value: ""}, "—"),
          step.choices.map(c => h("option", {value: c.value}, c.label)))));
    }
    const picks = h("div", {class: "picks"});
    const draw = () => picks.replaceChildren(...step.choices.map(c => {
      const at = values.indexOf(c.value);
      const label = /^[A-D]$/.test(c.value) ? seatName(c.value) : c.label;
      return h("button", {class: "pick" + (at >= 0 ? " on" : ""), "data-step": step.name, "data-value": c.value,
        onclick: () => {
          if (step.multi) { if (at >= 0) values.splice(at, 1); else values.push(c.value); }
          else values.splice(0, values.length, c.value);
          draw(); check();
        }}, step.multi && at >= 0 ? `${at + 1}. ${label}` : label);
    }));
    draw();
    return h("div", {}, h("label", {}, step.prompts[0] || step.name), picks);
  }
  function redraw() {
    body.replaceChildren(...hands.map((hand, n) => h("div", {class: "hand"},
      hands.length > 1 ? h("h2", {}, t("hand", {n: n + 1})) : null,
      form.steps.map(step => stepBlock(hand, step)))),
      form.steps.length ? h("div", {class: "actions"},
        h("button", {class: "plain", "data-testid": "add-hand", onclick: () => { hands.push({}); redraw(); check(); }}, t("add-hand")),
        hands.length > 1 ? h("button", {class: "plain", onclick: () => { hands.pop(); redraw(); check(); }}, t("remove-hand")) : null) : null);
  }
  redraw();
  const text = h("input", {type: "text", id: "typed", maxlength: 600, placeholder: form.example, "data-testid": "typed",
    oninput: e => { typed = e.target.value.trim(); check(); }});
  openSheet(
    h("h2", {}, `${t("table", {table: table.number})} · ${mode === "fix" ? t("fix") : t("report")}`),
    h("div", {class: "seats"}, table.seats.map(s => `${s.seat} ${s.name}`).join(" · ")),
    body,
    h("label", {for: "typed"}, t("type-instead", {example: form.example})), text,
    verdict,
    h("div", {class: "actions"}, submit, h("button", {class: "plain", onclick: closeSheet}, t("close"))));
  check();
}

// --- the console's parts ----------------------------------------------------------------
function seatsLine(table) {
  return h("div", {class: "seats"}, table.seats.map((s, i) => [i ? " · " : "",
    h("span", {class: s.user === state.user ? "me" : ""}, `${s.seat} ${s.name}`)]));
}
function tableCard(table, organiser) {
  const report = table.report;
  const card = h("div", {class: "table", "data-table": table.number, "data-state": table.state},
    h("div", {class: "row"}, h("strong", {}, t("table", {table: table.number})),
      h("span", {class: "state"}, table.state_label)),
    seatsLine(table),
    report ? h("div", {class: "report"}, report.text,
      report.by ? ` · ${t("reported-by", {name: nameOf(report.by)})}` : "",
      report.reason ? ` · ${t("because", {reason: report.reason})}` : "") : null);
  if (organiser && state.actions.fix) {
    const open = state.round && state.round.status === "open";
    card.append(h("div", {class: "actions"},
      h("button", {class: "plain", "data-action": "fix", onclick: () => resultSheet(table, "fix")}, t("fix")),
      open ? h("button", {class: "plain", "data-action": "forfeit", onclick: () => forfeitSheet(table)}, t("forfeit")) : null,
      open && state.actions.deadline ? h("button", {class: "plain", "data-action": "table-deadline",
        onclick: () => deadlineSheet(t("table-deadline", {table: table.number}), "deadline", {table: table.number})}, t("deadline")) : null));
  }
  return card;
}
function forfeitSheet(table) {
  openSheet(h("h2", {}, `${t("table", {table: table.number})} · ${t("forfeit")}`),
    h("div", {class: "actions"},
      h("button", {class: "danger", "data-testid": "forfeit-table", onclick: () => send("forfeit", {table: table.number})}, t("forfeit-table")),
      table.seats.map(s => h("button", {class: "plain", onclick: () => send("forfeit", {seat: `${table.number}${s.seat}`})},
        t("forfeit-seat", {name: `${s.seat} ${s.name}`})))),
    h("div", {class: "actions"}, h("button", {class: "plain", onclick: closeSheet}, t("close"))));
}
async function undoSheet() {
  const {data} = await api("/app/api/undo?start=" + encodeURIComponent(start));
  openSheet(h("h2", {}, t("undo")), h("p", {"data-testid": "undo-preview"}, data.text || data.error),
    h("div", {class: "actions"},
      data.what ? h("button", {class: "danger", "data-testid": "yes", onclick: () => send("undo")}, t("undo")) : null,
      h("button", {class: "plain", onclick: closeSheet}, t("close"))));
}
function roundControls() {
  const a = state.actions, r = state.round, ev = state.event;
  const buttons = [];
  if (a.draw) buttons.push(h("button", {"data-action": "draw", onclick: () => ask(t("draw-ask"), "draw")}, t("draw")));
  if (ev.status === "signup" && a["signup-deadline"])
    buttons.push(h("button", {class: "plain", "data-action": "signup-deadline",
      onclick: () => deadlineSheet(t("signup-deadline"), "signup-deadline")}, t("signup-deadline")));
  if (a.round && r && r.status !== "open")
    buttons.push(h("button", {"data-action": "round", onclick: () => deadlineSheet(t("open-round"), "round", {}, true)}, t("open-round")));
  if (a.deadline && r && r.status === "open")
    buttons.push(h("button", {class: "plain", "data-action": "deadline", onclick: () => deadlineSheet(t("move-deadline"), "deadline")}, t("move-deadline")));
  if (a.print && r && r.status !== "closed") buttons.push(h("button", {class: "plain", "data-action": "print", onclick: () => send("print")}, t("print")));
  if (a.live) buttons.push(h("button", {class: "plain", "data-action": "live", onclick: () => send("live")}, t("live")));
  if (a.undo) buttons.push(h("button", {class: "plain", "data-action": "undo", onclick: undoSheet}, t("undo")));
  if (a.cancel) buttons.push(h("button", {class: "danger", "data-action": "cancel", onclick: () => ask(t("cancel-ask"), "cancel")}, t("cancel")));
  return h("section", {}, h("div", {class: "actions"}, buttons));
}
function byes() {
  const r = state.round;
  return r && r.byes.length ? h("p", {class: "hint"}, t("byes", {names: r.byes.map(b => b.name).join(", ")})) : null;
}
function tablesTab() {
  const organiser = state.role === "organiser";
  const cards = state.tables.map(table => tableCard(table, organiser));
  return [organiser ? roundControls() : null, byes(),
    cards.length ? h("div", {class: "grid", id: "tables"}, cards) : h("p", {class: "hint"}, t("no-tables"))];
}

function peopleTab() {
  const p = state.people, a = state.actions;
  const list = h("ul", {class: "people", id: "players"}, p.players.map(player => h("li", {"data-user": player.user},
    h("span", {}, player.name, player.department ? ` · ${player.department}` : "", player.mark ? ` · ${player.mark}` : ""),
    h("button", {class: "plain", onclick: () => playerSheet(player)}, "…"))));
  const capInput = h("input", {type: "number", min: 2, id: "cap", value: p.cap || "", placeholder: t("cap-none")});
  const parts = [
    h("section", {}, h("h2", {}, t("players", {count: p.count}) + (p.cap ? ` · ${t("cap-line", {cap: p.cap})}` : "")),
      a.cap ? h("div", {class: "row"}, capInput,
        h("button", {class: "plain", "data-action": "cap", onclick: () => send("cap", {cap: capInput.value || "off"})}, t("set-cap"))) : null,
      a.late && p.late ? h("p", {class: "hint"}, t("late-line", {late: p.late})) : null,
      list),
  ];
  if (p.waiting.length) parts.push(h("section", {}, h("h2", {}, t("waiting")),
    h("ol", {}, p.waiting.map(w => h("li", {}, w.name)))));
  if (p.together.length) parts.push(h("section", {}, h("h2", {}, t("teams")),
    h("ol", {}, p.together.map(team => h("li", {}, team.map(m => m.name).join(" + "))))));
  parts.push(h("section", {}, h("h2", {}, t("apart-pairs")),
    p.apart.length ? h("ul", {}, p.apart.map(pair => h("li", {}, pair.map(m => m.name).join(" ↔ ")))) : h("p", {class: "hint"}, t("none")),
    p.apart.length && a["apart-clear"] ? h("button", {class: "plain", onclick: () => send("apart-clear")}, t("apart-clear")) : null));
  return parts;
}
function playerSheet(player) {
  const a = state.actions, others = state.people.players.filter(p => p.user !== player.user);
  const how = h("select", {id: "how"}, ["points", "cards", "warn"].map(k => h("option", {value: k}, t("penalty-" + k))));
  const amount = h("input", {id: "amount", type: "number", step: "0.5", min: "0.5", value: "1"});
  const reason = h("input", {id: "reason", type: "text", maxlength: 200});
  const apartWith = h("select", {id: "apart-with"}, others.map(o => h("option", {value: o.user}, o.name)));
  const subIn = h("select", {id: "sub-in"}, state.people.waiting.map(w => h("option", {value: w.user}, w.name)));
  openSheet(h("h2", {}, player.name),
    a.penalty ? h("div", {}, h("label", {for: "how"}, t("penalty")), how, h("label", {for: "amount"}, t("amount")), amount,
      h("label", {for: "reason"}, t("reason")), reason,
      h("div", {class: "actions"}, h("button", {"data-action": "penalty", onclick: () => {
        const fields = {player: player.user, how: how.value, reason: reason.value};
        if (how.value === "points") fields.points = amount.value;
        if (how.value === "cards") fields.cards = Number(amount.value);
        send("penalty", fields);
      }}, t("penalty")))) : null,
    a.apart && others.length ? h("div", {}, h("label", {for: "apart-with"}, t("apart-with")), apartWith,
      h("div", {class: "actions"}, h("button", {class: "plain", onclick: () => send("apart", {a: player.user, b: Number(apartWith.value)})}, t("apart")))) : null,
    a.sub && state.people.waiting.length ? h("div", {}, h("label", {for: "sub-in"}, t("sub-in")), subIn,
      h("div", {class: "actions"}, h("button", {class: "plain", onclick: () => send("sub", {out: player.user, in: Number(subIn.value)})}, t("sub")))) : null,
    h("div", {class: "actions"},
      a.drop ? h("button", {class: "danger", onclick: () => ask(t("drop-ask", {name: player.name}), "drop", {player: player.user})}, t("drop")) : null,
      a.dq ? h("button", {class: "danger", onclick: () => ask(t("dq-ask", {name: player.name}), "dq", {player: player.user})}, t("dq")) : null,
      h("button", {class: "plain", onclick: closeSheet}, t("close"))));
}

// --- the player's form ------------------------------------------------------------------
function leaving() {
  // Before the draw a player may leave; after it, drop out of the next draws.
  const a = state.actions;
  if (!state.round && a.leave) return h("div", {class: "actions"},
    h("button", {class: "danger", "data-action": "leave", onclick: () => ask(t("leave-ask"), "leave")}, t("leave")));
  if (state.round && a.drop) return h("div", {class: "actions"},
    h("button", {class: "danger", "data-action": "drop", onclick: () => ask(t("drop-self-ask"), "drop")}, t("drop")));
  return null;
}
function mineTab() {
  const mine = state.mine, r = state.round;
  if (!r) return [h("section", {}, h("p", {}, t("not-drawn")), leaving())];
  if (mine.bye) return [h("section", {"data-testid": "bye"}, h("p", {}, t("bye", {round: r.number})), leaving())];
  const table = mine.table;
  if (!table) return [h("section", {}, h("p", {}, t("no-table", {round: r.number})), leaving())];
  const report = table.report, pending = report && report.status === "pending";
  const mineReport = pending && report.by === state.user;
  const card = tableCard(table, false);
  card.id = "my-table";
  card.prepend(h("p", {class: "hint"}, `${t("round", {round: r.number})} · ${t("seat", {seat: mine.seat})}`));
  const actions = h("div", {class: "actions"});
  if (mine.can_report) actions.append(h("button", {"data-action": "report", onclick: () => resultSheet(table, "report")}, t("report")));
  if (pending && !mineReport) {
    actions.append(h("button", {"data-action": "confirm", onclick: () => send("confirm", {table: table.number})}, t("confirm")));
    actions.append(h("button", {class: "danger", "data-action": "dispute", onclick: () => disputeSheet(table)}, t("dispute")));
  }
  if (mine.can_check_in) actions.append(h("button", {class: "plain", "data-action": "here", onclick: () => send("here")}, t("here")));
  card.append(actions);
  if (table.deadline) card.append(h("p", {class: "hint"}, t("due", {when: new Date(table.deadline).toLocaleString(state.lang === "zh" ? "zh-CN" : "en-GB", {timeZone: state.event.zone, dateStyle: "medium", timeStyle: "short"})})));
  if (mine.why_not && !pending) card.append(h("p", {class: "hint"}, mine.why_not));
  return [card, h("section", {}, leaving())];
}
function disputeSheet(table) {
  const reason = h("input", {id: "dispute-reason", type: "text", maxlength: 200});
  openSheet(h("h2", {}, `${t("table", {table: table.number})} · ${t("dispute")}`),
    h("label", {for: "dispute-reason"}, t("reason")), reason,
    h("div", {class: "actions"},
      h("button", {class: "danger", "data-testid": "send", onclick: () => send("dispute", {table: table.number, reason: reason.value})}, t("dispute")),
      h("button", {class: "plain", onclick: closeSheet}, t("close"))));
}

// --- the standings: the same sheet as the picture and the live page ----------------------
async function standingsTab() {
  if (standings === null || standingsAt !== version) {
    const {status, data} = await api("/app/api/standings?start=" + encodeURIComponent(start));
    if (status === 200) { standings = data.standings; standingsAt = version; }
  }
  if (!standings) return [h("p", {class: "hint"}, t("no-standings"))];
  const grid = h("table", {class: "standings", id: "standings"});
  grid.append(h("tr", {}, standings.columns.map((c, i) => h("th", {class: standings.aligns[i] || "l"}, c))));
  for (const row of standings.rows) {
    grid.append(row.section ? h("tr", {class: "section"}, h("td", {colspan: standings.columns.length}, row.cells[0]))
      : h("tr", {}, row.cells.map((c, i) => h("td", {class: standings.aligns[i] || "l"}, c))));
  }
  return [h("section", {}, h("h2", {}, standings.title), h("p", {class: "hint"}, standings.subtitle), h("div", {class: "scroll"}, grid))];
}

// --- the whole page ---------------------------------------------------------------------
function tabsOf() {
  const tabs = [];
  if (state.mine) tabs.push("mine");
  tabs.push("tables");
  if (state.role === "organiser") tabs.push("people");
  tabs.push("standings");
  return tabs;
}
async function render() {
  L = state.labels;
  document.documentElement.lang = state.lang === "zh" ? "zh-CN" : "en";
  document.title = state.event.title;
  document.getElementById("title").textContent = state.event.title;
  const r = state.round;
  document.getElementById("status").textContent = [state.event.game, state.event.status_text].join(" · ");
  const tabs = tabsOf();
  if (!tabs.includes(tab)) tab = tabs[0];
  document.getElementById("tabs").replaceChildren(...tabs.map(name => h("button",
    {class: name === tab ? "on" : "", "data-tab": name, onclick: () => { tab = name; render(); }}, t("tab-" + name))));
  const content = {mine: mineTab, tables: tablesTab, people: peopleTab, standings: standingsTab}[tab];
  const parts = await content();
  document.getElementById("main").replaceChildren(...parts.filter(Boolean));
  tick();
}
function tick() {
  const clock = document.getElementById("clock");
  const deadline = state && state.round && state.round.deadline ? Date.parse(state.round.deadline) : null;
  if (deadline === null) { clock.textContent = ""; clock.className = ""; return; }
  const left = Math.floor((deadline - (Date.now() + skew)) / 1000);
  if (left <= 0) { clock.textContent = t("passed"); clock.className = "passed"; return; }
  const d = Math.floor(left / 86400), hours = Math.floor(left / 3600) % 24, m = Math.floor(left / 60) % 60, s = left % 60;
  const two = n => String(n).padStart(2, "0");
  clock.textContent = `${t("left")} ${d ? d + t("days") + " " : ""}${two(hours)}:${two(m)}:${two(s)}`;
  clock.className = "";
}
async function refresh() {
  const {status, data} = await api("/app/api/state?start=" + encodeURIComponent(start) + (version === null ? "" : "&v=" + version));
  if (status !== 200) {
    if (status === 401 || status === 403 || status === 404) fatal(data.text || FATAL[data.error] || FATAL.other);
    return false;
  }
  skew = Date.parse(data.now) - Date.now();
  if (!data.same) {
    state = data; version = data.version;
    if (document.getElementById("sheet").hidden) await render();
  }
  return true;
}
// Before the event's words are known (or when the launch data is refused): both languages.
const FATAL = {
  "no-init-data": "请在 Telegram 中打开 · Please open this from Telegram",
  "forged": "无法核实身份，请在 Telegram 中重新打开 · Could not verify you: open it again from Telegram",
  "expired": "已过期，请在 Telegram 中重新打开 · This has expired: open it again from Telegram",
  "no-event": "找不到这场比赛 · No such event",
  "other": "出错了，请稍后再试 · Something went wrong; try again later",
};
function applyTheme() {
  const dark = tg && tg.colorScheme === "dark";
  document.documentElement.dataset.theme = dark ? "dark" : "light";
}

(async function main() {
  if (!tg || !tg.initData) { fatal(FATAL["no-init-data"]); return; }
  tg.ready();
  tg.expand();
  applyTheme();
  tg.onEvent("themeChanged", applyTheme);
  setInterval(tick, 500);
  const ok = await refresh();
  if (!ok && !document.getElementById("fatal")) fatal(FATAL.other);
  if (!state) return;
  if (state.slip && state.mine) tab = "mine";
  setInterval(refresh, 1500);
})();
