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

async function show() {
  if (leave) { leave(); leave = null; }
  const hashPath = location.hash.slice(1).split("?")[0];
  const query = new URLSearchParams(location.hash.slice(1).split("?")[1] || "");
  const main = document.getElementById("view");
  for (const [pattern, view, trail] of routes) {
    const match = hashPath.match(pattern);
    if (!match) continue;
    const params = match.slice(1).map(decodeURIComponent);
    const [project, ...rest] = trail(params);
    crumbs(project, ...rest);
    fill(main);
    try {
      leave = await view(main, params, query);
    } catch (error) {
      fill(main, h("p", { class: "warning" }, `Could not load this page: ${error.message}`));
    }
    return;
  }
  crumbs();
  fill(main, h("h1", {}, "No such page"), h("p", {}, h("a", { href: "#/" }, "All projects")));
}

/** Navigates to a hash route, e.g. go("/p/demo"). */
export function go(route) {
  location.hash = "#" + route;
}

async function showClock() {
  try {
    const clock = await api.get("/clock");
    paintClock(clock);
  } catch (error) {
    toast(`Clock: ${error.message}`, "error");
  }
}

function paintClock(clock) {
  const now = document.getElementById("clock-now");
  const offset = Number(clock.offsetSeconds || 0);
  now.textContent = `${new Date(clock.now).toLocaleString()}${offset ? ` (+${offset} s)` : ""}`;
}

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
  if (event.type === "messagesDeleted") {
    toast(`${event.project}: ${event.count} pending message(s) deleted for device ${event.token.slice(0, 12)}… (${event.reason})`);
  }
});

startLive();
showClock();
addEventListener("hashchange", show);
show();
