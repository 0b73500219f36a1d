// The inbox's entry: the hash routes, the breadcrumbs and the clock. Each view is a module that
// draws into <main> and returns what to undo when the reader moves on.
import { api } from "./api.js";
import { h, fill, toast } from "./dom.js";
import { startLive, onEvent } from "./live.js";
import { projectsView } from "./view-projects.js";
import { projectView } from "./view-project.js";
import { deviceView } from "./view-device.js";
import { messagesView } from "./view-messages.js";
import { messageView } from "./view-message.js";

const routes = [
  [/^\/?$/, projectsView, () => []],
  [/^\/p\/([^/]+)$/, projectView, ([project]) => [project]],
  [/^\/p\/([^/]+)\/devices\/([^/]+)$/, deviceView, ([project, token]) => [project, ["device", token]]],
  [/^\/p\/([^/]+)\/messages$/, messagesView, ([project]) => [project, ["messages"]]],
  [/^\/p\/([^/]+)\/messages\/([^/]+)$/, messageView, ([project, id]) => [project, ["messages"], ["message", id]]],
];

let leave = null;
// Each navigation's number: a view that finishes loading after the reader moved on is undone at
// once, and its errors are not drawn over the newer page.
let navigation = 0;

function crumbs(project, ...rest) {
  const items = [h("li", {}, h("a", { href: "#/" }, "Projects"))];
  if (project) items.push(h("li", {}, h("a", { href: `#/p/${encodeURIComponent(project)}` }, project)));
  for (const [kind, value] of rest) {
    if (kind === "messages") items.push(h("li", {}, h("a", { href: `#/p/${encodeURIComponent(project)}/messages` }, "Message log")));
    if (kind === "device") items.push(h("li", {}, `Device ${value.slice(0, 12)}…`));
    if (kind === "message") items.push(h("li", {}, `Message ${value}`));
  }
  fill(document.getElementById("crumbs"), items);
}

function decoded(parts) {
  try { return parts.map(decodeURIComponent); } catch { return null; }
}

async function show() {
  if (leave) { leave(); leave = null; }
  const number = ++navigation;
  const hashPath = location.hash.slice(1).split("?")[0];
  const query = new URLSearchParams(location.hash.slice(1).split("?")[1] || "");
  const main = document.getElementById("view");
  delete main.dataset.route;
  for (const [pattern, view, trail] of routes) {
    const match = hashPath.match(pattern);
    const params = match && decoded(match.slice(1));
    if (!params) continue;
    const [project, ...rest] = trail(params);
    crumbs(project, ...rest);
    fill(main);
    let undo = null;
    try {
      undo = await view(main, params, query);
    } catch (error) {
      if (number === navigation) fill(main, h("p", { class: "warning" }, `Could not load this page: ${error.message}`));
    }
    if (number !== navigation) { if (undo) undo(); return; }
    leave = undo;
    // Which route the page shows, once it is drawn (the browser tests wait for it).
    main.dataset.route = hashPath || "/";
    return;
  }
  crumbs();
  fill(main, h("h1", {}, "No such page"), h("p", {}, h("a", { href: "#/" }, "All projects")));
  main.dataset.route = hashPath;
}

async function showClock() {
  try {
    const clock = await api.get("/clock");
    paintClock(clock);
  } catch (error) {
    toast(`Clock: ${error.message}`, "error");
  }
}

// The emulator's clock runs with the real one between its moves: the header counts on from the
// last reading instead of asking again every second.
let clockReading = null;

function paintClock(clock) {
  if (clock) clockReading = { at: Date.now(), now: Date.parse(clock.now), offset: Number(clock.offsetSeconds || 0) };
  if (!clockReading) return;
  const now = new Date(clockReading.now + (Date.now() - clockReading.at));
  const offset = clockReading.offset;
  document.getElementById("clock-now").textContent = `${now.toLocaleString()}${offset ? ` (+${offset} s)` : ""}`;
}
setInterval(() => paintClock(), 1000);

document.getElementById("clock").addEventListener("submit", async (event) => {
  event.preventDefault();
  const seconds = Number(event.target.seconds.value);
  try {
    paintClock(await api.post("/clock:advance", { seconds }));
  } catch (error) {
    toast(`Advance: ${error.message}`, "error");
  }
});
document.getElementById("clock-reset").addEventListener("click", async () => {
  try {
    paintClock(await api.post("/clock:reset"));
  } catch (error) {
    toast(`Reset clock: ${error.message}`, "error");
  }
});

onEvent((event) => {
  if (event.type === "clock") paintClock(event);
  // A reset or an import sets the clock too, and says only "state".
  if (event.type === "state") showClock();
  if (event.type === "messagesDeleted") {
    toast(`${event.project}: ${event.count} pending message(s) deleted for device ${event.token.slice(0, 12)}… (${event.reason})`);
  }
});

startLive();
showClock();
// The skip link moves the focus, not the route.
document.querySelector(".skip").addEventListener("click", (event) => {
  event.preventDefault();
  document.getElementById("view").focus();
});
addEventListener("hashchange", () => {
  show();
  // A new page: its content is where the keyboard and a screen reader go next.
  document.getElementById("view").focus({ preventScroll: true });
});
show();
