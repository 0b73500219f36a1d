// A web delivery as the browser presents it: the notification the service worker shows, or the
// MessagePayload a handler gets, with the presentation notes beside it (docs/web.md). Same shape
// as the Apple preview: (delivery, device) → element.
import { h, json } from "./dom.js";

function hostOf(url) {
  try { return new URL(url).host; } catch { return String(url).slice(0, 24); }
}

/** The preview of one web delivery for `device` (may be null: a device since uninstalled). */
export function webPreview(delivery, device) {
  const payload = delivery.messagePayload || {};
  const notification = delivery.pushData?.notification || {};
  const presentation = delivery.presentation || {};
  const appState = device?.appState || "background";
  const site = hostOf(device?.origin || device?.bundleId || "site");
  const parts = [];
  if (presentation.shown) {
    const actions = Array.isArray(notification.actions) ? notification.actions : [];
    parts.push(h("figure", { class: "phone web", "aria-label": "Notification preview" },
      h("div", { class: "ios-card web-card" },
        h("div", { class: "app" }, h("span", { class: "icon", "aria-hidden": "true" }), site, h("span", { class: "when" }, "now")),
        h("div", { class: "title" }, typeof notification.title === "string" ? notification.title : ""),
        typeof notification.body === "string" ? h("div", { class: "body" }, notification.body) : null,
        typeof notification.image === "string" ? h("div", { class: "image", title: notification.image, "aria-label": `Image ${notification.image}` }, "image", h("br"), hostOf(notification.image)) : null,
        actions.length ? h("div", { class: "meta" }, actions.map((action) => h("span", { class: "badge" }, String(action?.title ?? action?.action ?? "")))) : null),
      h("figcaption", { class: "visually-hidden" }, "Browser notification")));
  }
  if (presentation.callback) {
    parts.push(h("div", { class: "callback" },
      h("p", {}, "The ", h("code", {}, presentation.callback), " handler receives this MessagePayload:"),
      json(payload, "What the handler receives")));
  } else if (!presentation.shown) {
    parts.push(h("p", {}, "Nothing is shown and no handler runs."));
  }
  parts.push(h("ul", { class: "notes", "aria-label": "Presentation notes" },
    h("li", {}, `${presentation.shown ? "Shown by the service worker" : "Not shown"} (app ${appState})`),
    presentation.clickOpens ? h("li", {}, `A click opens ${presentation.clickOpens}`) : null,
    (presentation.warnings || []).map((warning) => h("li", { class: "warning" }, `⚠ ${warning.message}`))));
  return h("div", { class: "preview" }, parts);
}
