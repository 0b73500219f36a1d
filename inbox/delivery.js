// One delivery: its preview, state history, and what the device got: an Apple device's APNs
// headers, payload and Simulator file, an Android device's extras and RemoteMessage, a web
// device's push message and MessagePayload.
import { h, json, stateBadge, keyValues, when } from "./dom.js";
import { applePreview } from "./preview-apple.js";
import { androidPreview } from "./preview-android.js";
import { webPreview } from "./preview-web.js";

/** The preview component for the delivery's platform, read from what it carries. */
function preview(delivery, device) {
  if (delivery.remoteMessage) return androidPreview(delivery, device);
  if (delivery.messagePayload) return webPreview(delivery, device);
  return applePreview(delivery, device);
}

/** What the device got, as the platform's SDK has it. */
function received(delivery) {
  if (delivery.remoteMessage) {
    return [
      h("details", { open: true }, h("summary", {}, "Intent extras"), json(delivery.extras, "Android intent extras")),
      h("details", {}, h("summary", {}, "RemoteMessage"), json(delivery.remoteMessage, "RemoteMessage getters")),
    ];
  }
  if (delivery.messagePayload) {
    return [
      h("details", { open: true }, h("summary", {}, "Push message"), json(delivery.pushData, "Web push message")),
      h("details", {}, h("summary", {}, "MessagePayload"), json(delivery.messagePayload, "MessagePayload")),
    ];
  }
  return [
    h("table", { class: "headers", "aria-label": "APNs headers" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Header"), h("th", { scope: "col" }, "Value"))),
      h("tbody", {}, Object.entries(delivery.headers).map(([name, value]) => h("tr", {}, h("td", { class: "mono" }, name), h("td", { class: "mono" }, value))))),
    h("details", { open: true }, h("summary", {}, "Payload"), json(delivery.payload, "APNs payload")),
  ];
}

/** The message id of `projects/{p}/messages/{id}`. */
export function messageIdOf(name) {
  return name.slice(name.lastIndexOf("/") + 1);
}

/** A delivery's card; `device` (may be null) decides the preview. */
export function deliveryCard(delivery, device, project) {
  const messageId = messageIdOf(delivery.messageName);
  const history = delivery.history.map((step) => h("li", {}, stateBadge(step.state), ` ${when(step.at)}`, step.reason ? ` — ${step.reason}` : ""));
  return h("article", { class: "delivery", "data-delivery": delivery.id, "aria-label": `Delivery ${delivery.id}` },
    h("header", {},
      h("strong", {}, delivery.id), stateBadge(delivery.state),
      h("span", { class: "badge" }, delivery.origin.toUpperCase()),
      h("a", { href: `#/p/${encodeURIComponent(project)}/messages/${messageId}` }, `message ${messageId}`),
      delivery.simulatorFile ? h("a", { href: delivery.simulatorFile, download: "" }, "Download .apns") : null),
    h("div", { class: "grid" },
      preview(delivery, device),
      h("div", {},
        keyValues([
          ["Device", h("a", { class: "mono", href: `#/p/${encodeURIComponent(project)}/devices/${encodeURIComponent(delivery.token)}` }, `${delivery.token.slice(0, 20)}…`)],
          ["Queued", when(delivery.enqueuedAt)],
          ["Expires", when(delivery.expiresAt)],
          ["Delayed until", delivery.heldUntil ? when(delivery.heldUntil) : undefined],
          ["Collapse id", delivery.collapseId ?? undefined],
        ]),
        h("h3", { class: "visually-hidden" }, "State history"),
        h("ol", { class: "notes", "aria-label": "State history" }, history),
        received(delivery))));
}
