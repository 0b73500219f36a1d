// A project: its devices (with the form that registers one), its faults, and its reset.
import { api, path } from "./api.js";
import { h, fill, field, select, json, toast, confirmButton } from "./dom.js";
import { onEvent, throttled } from "./live.js";

export async function projectView(main, [project]) {
  const base = path`/projects/${project}`;
  const link = `#/p/${encodeURIComponent(project)}`;
  const devices = h("tbody");
  const pager = h("p", { class: "pager" });
  const faults = h("div");

  const form = h("form", { class: "row", "aria-label": "Register a device", onsubmit: register },
    field("Platform", select("platform", ["ios", "android", "web"], "ios")),
    field("App id (bundle id, package name or origin)", h("input", { name: "appId", placeholder: "com.example.app", autocomplete: "off" })),
    field("APNs token (hex, optional)", h("input", { name: "apnsToken", autocomplete: "off", spellcheck: "false" })),
    field("FCM token (optional)", h("input", { name: "token", autocomplete: "off", spellcheck: "false" })),
    field("App state", select("appState", ["background", "foreground", "notRunning"], "background")),
    field("Notification service extension (iOS)", h("input", { type: "checkbox", name: "notificationServiceExtension", checked: true })),
    h("button", { type: "submit", class: "primary" }, "Register device"));

  async function register(event) {
    event.preventDefault();
    const data = new FormData(form);
    const platform = data.get("platform");
    const body = { platform, appState: data.get("appState") };
    if (platform === "ios") body.notificationServiceExtension = data.get("notificationServiceExtension") === "on";
    // Each platform names its app id its own way (docs/android.md, docs/web.md).
    const appIdKey = { ios: "bundleId", android: "packageName", web: "origin" }[platform];
    if (data.get("appId")) body[appIdKey] = data.get("appId");
    for (const key of ["apnsToken", "token"]) if (data.get(key)) body[key] = data.get(key);
    try {
      const device = await api.post(`${base}/devices`, body);
      toast(`Registered ${device.token.slice(0, 16)}…`);
      location.hash = `${link}/devices/${encodeURIComponent(device.token)}`;
    } catch (error) {
      toast(`Register: ${error.message}`, "error");
    }
  }

  const faultText = h("textarea", { name: "fault", rows: 4, cols: 50, spellcheck: "false" },
    JSON.stringify({ match: { token: "…" }, error: "UNAVAILABLE", times: 1 }, null, 1));
  const faultForm = h("form", { class: "row", "aria-label": "Add a fault", onsubmit: addFault },
    field("Fault (JSON, docs/faults.md)", faultText), h("button", { type: "submit" }, "Add fault"));

  async function addFault(event) {
    event.preventDefault();
    try {
      await api.post(`${base}/faults`, JSON.parse(faultText.value));
      await loadFaults();
    } catch (error) {
      toast(`Fault: ${error.message}`, "error");
    }
  }

  fill(main,
    h("h1", {}, project),
    h("p", { class: "actions" },
      h("a", { href: `${link}/messages` }, "Message log"),
      confirmButton("Reset project", async () => {
        try { await api.delete(base); toast(`${project} reset`); await loadDevices(); await loadFaults(); } catch (error) { toast(error.message, "error"); }
      })),
    h("section", {}, h("h2", {}, "Register a device"), form),
    h("section", {}, h("h2", {}, "Devices"),
      h("table", { class: "stack" },
        h("thead", {}, h("tr", {}, ["Token", "Platform", "App id", "App state", "Connected", "Pending", "Topics"].map((title) => h("th", { scope: "col" }, title)))),
        devices),
      pager),
    h("section", {}, h("h2", {}, "Faults"), faults, faultForm));

  let pageToken = "";
  async function loadDevices() {
    const page = await api.get(`${base}/devices`, { pageSize: 100, pageToken });
    fill(devices, page.devices.length ? page.devices.map((device) => h("tr", {},
      h("td", { "data-label": "Token", class: "mono" }, h("a", { href: `${link}/devices/${encodeURIComponent(device.token)}` }, `${device.token.slice(0, 24)}…`)),
      h("td", { "data-label": "Platform" }, device.platform),
      h("td", { "data-label": "App id" }, device.bundleId),
      h("td", { "data-label": "App state" }, device.appState),
      h("td", { "data-label": "Connected" }, device.connected ? "yes" : "no"),
      h("td", { "data-label": "Pending" }, device.pendingCount),
      h("td", { "data-label": "Topics" }, device.topics.join(", ") || "—"))) : h("tr", {}, h("td", { colspan: 7, class: "muted" }, "No devices: register one above.")));
    fill(pager,
      pageToken ? h("button", { type: "button", onclick: () => { pageToken = ""; loadDevices(); } }, "First page") : null,
      page.nextPageToken ? h("button", { type: "button", onclick: () => { pageToken = page.nextPageToken; loadDevices(); } }, "Next page") : null);
  }

  async function removeFaults(route) {
    try {
      await api.delete(route);
      await loadFaults();
    } catch (error) {
      toast(`Remove fault: ${error.message}`, "error");
    }
  }

  async function loadFaults() {
    const page = await api.get(`${base}/faults`, { pageSize: 100 });
    fill(faults, page.faults.length ? [
      h("ul", {}, page.faults.map((fault) => h("li", {}, json(fault, `Fault ${fault.id}`),
        h("button", { type: "button", onclick: () => removeFaults(`${base}/faults/${fault.id}`) }, `Remove fault ${fault.id}`)))),
      h("button", { type: "button", onclick: () => removeFaults(`${base}/faults`) }, "Remove all faults"),
    ] : h("p", { class: "muted" }, "No faults."));
  }

  await Promise.all([loadDevices(), loadFaults()]);
  const refreshDevices = throttled(loadDevices, 300);
  const refreshFaults = throttled(loadFaults, 300);
  return onEvent((event) => {
    if (event.type === "state") { refreshDevices(); refreshFaults(); }
    if (event.project !== project) return;
    if (event.type === "project") refreshFaults();
    if (["device", "message", "delivery", "messagesDeleted", "project"].includes(event.type)) refreshDevices();
  });
}
