// The first view: every project with its counts, live.
import { api } from "./api.js";
import { h, fill, field } from "./dom.js";
import { onEvent, throttled } from "./live.js";

export async function projectsView(main) {
  const body = h("tbody");
  const more = h("p", { class: "pager" });
  const name = h("input", { name: "project", required: true, pattern: "[a-zA-Z0-9._:\\-]{1,100}", placeholder: "demo-project", autocomplete: "off" });
  const open = h("form", { class: "row", "aria-label": "Open a project",
    onsubmit: (event) => { event.preventDefault(); location.hash = `#/p/${encodeURIComponent(name.value)}`; } },
    field("Project id", name), h("button", { type: "submit", class: "primary" }, "Open"));
  fill(main,
    h("h1", {}, "Projects"),
    h("section", {},
      h("p", { class: "muted" }, "A project exists once a device is registered or a message is sent to it. Open one by its id to register its first device."),
      open),
    h("section", {},
      h("table", { class: "stack" },
        h("thead", {}, h("tr", {}, ["Project", "Devices", "Connected", "Pending", "Messages", "Faults"].map((title) => h("th", { scope: "col" }, title)))),
        body),
      more));

  let pageToken = "";
  async function load() {
    const page = await api.get("/projects", { pageSize: 100, pageToken });
    fill(body, page.projects.length ? page.projects.map((project) => {
      const link = `#/p/${encodeURIComponent(project.projectId)}`;
      return h("tr", {},
        h("td", { "data-label": "Project" }, h("a", { href: link }, project.projectId)),
        h("td", { "data-label": "Devices" }, project.deviceCount),
        h("td", { "data-label": "Connected" }, project.connectedDeviceCount),
        h("td", { "data-label": "Pending" }, project.pendingDeliveryCount),
        h("td", { "data-label": "Messages" }, h("a", { href: `${link}/messages` }, project.messageCount)),
        h("td", { "data-label": "Faults" }, project.faultCount));
    }) : h("tr", {}, h("td", { colspan: 6, class: "muted" }, "No projects yet.")));
    fill(more,
      pageToken ? h("button", { type: "button", onclick: () => { pageToken = ""; load(); } }, "First page") : null,
      page.nextPageToken ? h("button", { type: "button", onclick: () => { pageToken = page.nextPageToken; load(); } }, "Next page") : null);
  }
  await load();
  return onEvent(throttled(load, 500));
}
