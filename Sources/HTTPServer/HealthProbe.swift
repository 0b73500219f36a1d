/// A client for the server's own `GET /healthz`, for container health checks that should not need
/// curl in the image (`push-emulator healthcheck`).
public enum HealthProbe {
    /// nil when `http://host:port/healthz` answers `200` within `timeoutSeconds`, else why not.
    public static func problem(host: String, port: UInt16, timeoutSeconds: Int = 5) -> String? {
        do throws(HTTPClientError) {
            let url = try HTTPClientURL(host.contains(":") ? "http://[\(host)]:\(port)/healthz" : "http://\(host):\(port)/healthz")
            let response = try HTTPClient().send("GET", url, timeoutSeconds: timeoutSeconds)
            guard response.status == 200 else { return "GET /healthz answered \(response.status)" }
            return nil
        } catch {
            return error.description
        }
    }
}
