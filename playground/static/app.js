// The playground page: reads chats from /api, listens on /events, acts by POSTing.
"use strict";

const $ = (id) => document.getElementById(id);
const seen = JSON.parse(localStorage.getItem("seen") || "{}");
let world = null;
let current = JSON.parse(localStorage.getItem("where") || "{}");
let refreshing = false;
let again = false;

function esc(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({
    "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;",
  })[c]);
}

async function api(path, body) {
  const response = await fetch(path, body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  const type = response.headers.get("Content-Type") || "";
  const data = type.includes("json") ? await response.json() : { error: await response.text() };
  if (!response.ok && data.error) toast(data.error, true);
  return data;
}

function toast(text, alert) {
  const box = $("toast");
  box.textContent = text;
  box.className = alert ? "alert" : "";
  box.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { box.hidden = true; }, alert ? 3500 : 1800);
}

function remember() {
  localStorage.setItem("where", JSON.stringify(current));
  localStorage.setItem("seen", JSON.stringify(seen));
}

function time(seconds) {
  const d = new Date(seconds * 1000);
  return d.getHours().toString().padStart(2, "0") + ":" + d.getMinutes().toString().padStart(2, "0");
}

function renderControls() {
  const select = $("speaker");
  const roles = { admin: " · 组织者", anonymous: " · 以群身份 as the group", player: "" };
  const options = world.people.map((p) =>
    `<option value="${p.uid}">${esc(p.name)}${roles[p.role]}</option>`).join("");
  if (options !== renderControls.options) {  // untouched otherwise: an open list stays open
    select.innerHTML = renderControls.options = options;
  }
  select.value = String(current.as);
  const tabs = world.chats.filter((c) => !c.private || c.id === current.as || c.last > 0);
  if (!tabs.some((c) => c.id === current.as) && current.as) {
    const me = world.people.find((p) => p.uid === current.as);
    tabs.push({ id: current.as, title: me ? me.name : "", private: true, last: 0 });
  }
  $("tabs").innerHTML = tabs.map((c) => {
    const label = c.private ? `🔒 ${esc(c.title)}` : `👥 ${esc(c.title)}`;
    const dot = c.id !== current.chat && c.last > (seen[c.id] || 0) ? '<span class="dot"></span>' : "";
    const active = c.id === current.chat ? " active" : "";
    return `<button class="tab${active}" data-chat="${c.id}" data-private="${c.private}">${label}${dot}</button>`;
  }).join("");
  $("demo").disabled = world.demo_running;
}

function renderMessage(m) {
  const mine = !m.bot && m.from_id === current.as;
  const parts = [];
  if (!mine) parts.push(`<div class="name">${esc(m.name)}</div>`);
  if (m.reply_to) parts.push(`<div class="reply"><b>${esc(m.reply_to.name)}</b> ${esc(m.reply_to.text)}</div>`);
  if (m.photo) parts.push(`<a href="${m.photo}" target="_blank"><img class="photo" src="${m.photo}" alt="picture"></a>`);
  if (m.document) {
    parts.push(`<a class="document" href="${m.document.url}" download="${esc(m.document.name)}">📄 ${esc(m.document.name)}</a>`);
  }
  if (m.text) parts.push(`<div class="text">${esc(m.text)}</div>`);
  const flags = (m.reactions || []).join("") + " " + (m.pinned ? "📌 " : "") + (m.edited ? "已编辑 edited " : "");
  parts.push(`<div class="meta">${flags}${time(m.date)}</div>`);
  let buttons = "";
  if (m.buttons.length) {
    buttons = '<div class="buttons">' + m.buttons.map((row) => '<div class="row">' + row.map((b) =>
      b.data ? `<button type="button" data-message="${m.id}" data-data="${esc(b.data)}">${esc(b.text)}</button>`
      : b.web_app ? `<button type="button" data-miniapp="${esc(b.web_app)}">${esc(b.text)}</button>`
      : /[?&]startapp=/.test(b.url || "") ? `<button type="button" data-miniapp="${esc(b.url)}">${esc(b.text)}</button>`
      : `<a href="${esc(b.url || "#")}" target="_blank" rel="noopener">${esc(b.text)}</a>`,
    ).join("") + "</div>").join("") + "</div>";
  }
  const classes = ["msg", m.bot ? "bot" : "user", mine ? "mine" : ""].join(" ");
  return `<div class="${classes}" data-id="${m.id}"><div class="bubble">${parts.join("")}</div>${buttons}</div>`;
}

function renderChat(chat) {
  const list = $("messages");
  const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 80;
  list.innerHTML = chat.messages.length ? chat.messages.map(renderMessage).join("")
    : '<p class="empty">还没有消息。试试 /new bigtwo 周五锄大地，或按 ▶ 演示 Demo。<br>'
      + "No messages yet: try /new bigtwo Friday, or press ▶ Demo.</p>";
  const pin = $("pinned");
  pin.hidden = !chat.pinned;
  if (chat.pinned) {
    pin.innerHTML = `<b>📌 置顶 Pinned</b> ${esc(chat.pinned.text.split("\n")[0])}`;
    pin.dataset.id = chat.pinned.id;
  }
  const last = chat.messages.length ? chat.messages[chat.messages.length - 1].id : 0;
  if (atBottom || last > (seen[chat.id] || 0)) {
    list.scrollTop = list.scrollHeight;
    for (const img of list.querySelectorAll("img")) {  // a picture that loads grows the list
      if (!img.complete) img.addEventListener("load", () => { list.scrollTop = list.scrollHeight; });
    }
  }
  seen[chat.id] = last;
  remember();
}

async function refresh() {
  if (refreshing) { again = true; return; }
  refreshing = true;
  try {
    do {
      again = false;
      world = await api("/api/state");
      if (current.as === undefined || !world.people.some((p) => p.uid === current.as)) {
        current.as = world.people[0].uid;
      }
      if (!world.chats.some((c) => c.id === current.chat) && current.chat !== current.as) {
        current.chat = world.chats[0].id;
      }
      const chat = await api(`/api/chat/${current.chat}`);
      if (chat.messages) renderChat(chat);
      renderControls();
    } while (again);
  } finally {
    refreshing = false;
  }
}

$("speaker").addEventListener("change", (e) => {
  const uid = Number(e.target.value);
  const wasPrivate = world.chats.every((c) => c.id !== current.chat || c.private);
  current.as = uid;
  if (wasPrivate) current.chat = uid;  // a private chat belongs to one player
  remember();
  refresh();
});

$("tabs").addEventListener("click", (e) => {
  const tab = e.target.closest(".tab");
  if (!tab) return;
  current.chat = Number(tab.dataset.chat);
  if (tab.dataset.private === "true") current.as = current.chat;
  remember();
  refresh();
});

// A Mini App button or link: the app opens over the chat, as the player speaking.
async function openMiniApp(url) {
  const launched = await api("/api/webapp", { as: current.as, url });
  if (!launched.url) return;
  $("miniapp-frame").src = launched.url;
  $("miniapp").hidden = false;
}
$("miniapp-close").addEventListener("click", () => { $("miniapp").hidden = true; $("miniapp-frame").src = "about:blank"; });

$("messages").addEventListener("click", async (e) => {
  const app = e.target.closest("button[data-miniapp]");
  if (app) { openMiniApp(app.dataset.miniapp); return; }
  const button = e.target.closest("button[data-data]");
  if (!button) return;
  const answer = await api("/api/press", {
    chat: current.chat, as: current.as, message: Number(button.dataset.message), data: button.dataset.data,
  });
  if (answer.toast) toast(answer.toast, answer.alert);
});

$("pinned").addEventListener("click", () => {
  const target = document.querySelector(`.msg[data-id="${$("pinned").dataset.id}"]`);
  if (target) target.scrollIntoView({ block: "center" });
});

$("composer").addEventListener("submit", async (e) => {
  e.preventDefault();
  const input = $("input");
  const text = input.value;
  if (!text.trim()) return;
  input.value = "";
  await api("/api/say", { chat: current.chat, as: current.as, text });
});

$("add-player").addEventListener("click", async () => {
  const name = prompt("新选手的名字 New player's name");
  if (!name || !name.trim()) return;
  const added = await api("/api/player", { name });
  if (added.uid) { current.as = added.uid; remember(); refresh(); }
});

$("demo").addEventListener("click", async () => {
  const started = await api("/api/demo", {});
  if (started.chat) { current.chat = started.chat; remember(); refresh(); }
});

new EventSource("/events").onmessage = () => refresh();
refresh();
