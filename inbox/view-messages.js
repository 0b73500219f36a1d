// The message log: filters, one page at a time, newest first; the first page follows new sends.
import { api, path } from "./api.js";
import { h, fill, field, select, stateBadge, when } from "./dom.js";
import { onEvent, throttled } from "./live.js";

const pageSize = 50;

/** A message's title and body, from whichever part of the request holds them. */
export function summaryOf(message) {
  const request = message.request || {};
  const fcm = request.message || {};
  const aps = (message.origin === "apns" ? request : fcm.apns?.payload)?.aps || {};
  const alert = typeof aps.alert === "string" ? { body: aps.alert } : aps.alert || {};
  const notification = fcm.notification || {};
  const title = notification.title ?? alert.title;
  const body = notification.body ?? alert.body;
  if (title || body) return [title, body].filter(Boolean).join(" — ");
  const data = fcm.data || (message.origin === "apns" ? Object.fromEntries(Object.entries(request).filter(([key]) => key !== "aps")) : null);
  if (data && Object.keys(data).length) return `data: ${JSON.stringify(data).slice(0, 80)}`;
  return aps["content-available"] ? "background (content-available)" : "—";
}

/** "token: abc…", "topic: news", … */
export function targetText(target) {
  const [kind, value] = Object.entries(target || {})[0] || ["", ""];
  return `${kind}: ${value.length > 28 ? `${value.slice(0, 28)}…` : value}`;
}

export async function messagesView(main, [project], query) {
  const base = path`/projects/${project}/messages`;
  const link = `#/p/${encodeURIComponent(project)}/messages`;
  const filters = {
    token: query.get("token") || "", topic: query.get("topic") || "", state: query.get("state") || "",
    origin: query.get("origin") || "", text: query.get("text") || "",
  };
  const rows = h("tbody");
  const pager = h("p", { class: "pager" });
  const fresh = h("p", { "aria-live": "polite" });
  const form = h("form", { class: "filters", role: "search", "aria-label": "Filter the log", onsubmit: apply },
    field("Text (title, body, data)", h("input", { name: "text", type: "search", value: filters.text })),
    field("Token", h("input", { name: "token", value: filters.token, spellcheck: "false" })),
    field("Topic", h("input", { name: "topic", value: filters.topic })),
    field("State", select("state", ["", "pending", "delivered", "expired", "collapsed", "deleted", "dropped"], filters.state)),
    field("Origin", select("origin", ["", "fcm", "apns"], filters.origin)),
    h("button", { type: "submit", class: "primary" }, "Filter"),
    h("a", { href: link }, "Clear filters"));

  function apply(event) {
    event.preventDefault();
    const data = new FormData(form);
    const params = new URLSearchParams();
    for (const name of Object.keys(filters)) if (data.get(name)) params.set(name, data.get(name));
    const text = params.toString();
    location.hash = text ? `${link}?${text}` : link;
  }

  fill(main,
    h("h1", {}, `Message log — ${project}`),
    h("section", {}, form),
    fresh,
    h("section", {},
      h("table", { class: "stack", "aria-label": "Messages" },
        h("thead", {}, h("tr", {}, ["Sent", "Message", "Origin", "Target", "Content", "Deliveries"].map((title) => h("th", { scope: "col" }, title)))),
        rows),
      pager));

  let pageToken = "";
  const newer = [];
  let unseen = 0;
  let loads = 0;
  async function load() {
    const mine = ++loads;
    const page = await api.get(base, { ...filters, pageSize, pageToken });
    // A slower read that a newer one overtook (a live refresh while the reader paged) is dropped.
    if (mine !== loads) return;
    fill(rows, page.messages.length ? page.messages.map((message) => h("tr", { "data-message": message.messageId },
      h("td", { "data-label": "Sent" }, when(message.sentAt)),
      h("td", { "data-label": "Message", class: "mono" }, h("a", { href: `${link}/${message.messageId}` }, message.messageId)),
      h("td", { "data-label": "Origin" }, message.origin.toUpperCase()),
      h("td", { "data-label": "Target", class: "mono" }, targetText(message.target)),
      h("td", { "data-label": "Content" }, summaryOf(message)),
      h("td", { "data-label": "Deliveries" }, message.deliveries.length
        ? message.deliveries.slice(0, 5).map((delivery) => [stateBadge(delivery.state), " "]).concat(message.deliveries.length > 5 ? `+${message.deliveries.length - 5}` : [])
        : h("span", { class: "muted" }, "none"))))
      : h("tr", {}, h("td", { colspan: 6, class: "muted" }, "No messages match.")));
    fill(pager,
      newer.length ? h("button", { type: "button", onclick: () => { pageToken = newer.pop(); load(); } }, "Newer") : null,
      page.nextPageToken ? h("button", { type: "button", onclick: () => { newer.push(pageToken); pageToken = page.nextPageToken; load(); } }, "Older") : null);
    if (!pageToken) { unseen = 0; fill(fresh); }
  }
  await load();

  const refresh = throttled(load, 300);
  return onEvent((event) => {
    if (event.type === "state") { refresh(); return; }
    if (event.project !== project) return;
    if (!["message", "delivery", "project"].includes(event.type)) return;
    // Later pages stay still while the reader reads them; the first one follows.
    if (pageToken) {
      if (event.type === "message") {
        unseen += 1;
        fill(fresh, h("button", { type: "button", class: "banner-new", onclick: () => { pageToken = ""; newer.length = 0; load(); } }, `${unseen} new message(s): show the newest`));
      }
      return;
    }
    refresh();
  });
}
