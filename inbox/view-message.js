// One message: the request as the backend sent it, its target, and every delivery.
import { api, path } from "./api.js";
import { h, fill, json, keyValues, when } from "./dom.js";
import { onEvent, throttled } from "./live.js";
import { deliveryCard } from "./delivery.js";
import { targetText } from "./view-messages.js";

export async function messageView(main, [project, id]) {
  const facts = h("div");
  const request = h("div");
  const deliveries = h("div");
  fill(main,
    h("h1", {}, `Message ${id}`),
    h("section", {}, facts),
    h("section", {}, h("h2", {}, "Request"), request),
    h("section", {}, h("h2", {}, "Deliveries"), deliveries));

  // The devices decide the previews (app state, extension). One page of the project's devices,
  // not one read per delivery: an uninstalled device is simply missing, never a failed read.
  const devices = new Map();
  async function loadDevices() {
    const page = await api.get(path`/projects/${project}/devices`, { pageSize: 1000 });
    devices.clear();
    for (const device of page.devices) devices.set(device.token, device);
  }

  async function load() {
    const [message] = await Promise.all([api.get(path`/projects/${project}/messages/${id}`), loadDevices()]);
    fill(facts, keyValues([
      ["Name", h("span", { class: "mono" }, message.name)],
      ["Origin", message.origin === "fcm" ? "FCM HTTP v1 (messages:send)" : "APNs provider API"],
      ["Sent", when(message.sentAt)],
      ["Target", h("span", { class: "mono" }, targetText(message.target))],
      ["Deliveries", String(message.deliveries.length)],
    ]));
    fill(request, json(message.request, message.origin === "fcm" ? "FCM request body" : "APNs payload"));
    const shown = message.deliveries.slice(0, 100);
    const cards = [];
    for (const delivery of shown) cards.push(deliveryCard(delivery, devices.get(delivery.token) ?? null, project));
    fill(deliveries, cards.length ? cards : h("p", { class: "muted" }, "It reached no device."),
      message.deliveries.length > shown.length ? h("p", { class: "muted" }, `The first ${shown.length} of ${message.deliveries.length} deliveries.`) : null);
  }
  await load();
  const refresh = throttled(load, 300);
  let gone = false;
  return onEvent((event) => {
    if (gone) return;
    const cleared = event.type === "state" || (event.project === project && event.type === "project"
      && (event.change === "reset" || event.change === "messagesCleared"));
    if (cleared) {
      // The log no longer holds it (an import may, but the page says so rather than guess).
      gone = true;
      fill(main, h("h1", {}, `Message ${id}`), h("p", { class: "warning" }, "The message log was cleared or reset since this page opened."),
        h("p", {}, h("a", { href: `#/p/${encodeURIComponent(project)}/messages` }, "The message log")));
      return;
    }
    if (event.project === project && (event.type === "delivery" || event.type === "messagesDeleted")) refresh();
  });
}
