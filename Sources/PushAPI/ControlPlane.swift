import ByteCoding
import HTTPServer
import PushCore

/// Shared pieces of the `/emulator/v1` control plane: JSON answers, paging and lookup errors.
enum ControlPlane {
    static func ok(_ value: JSONValue, status: Int = 200) -> HTTPResponse {
        .json(status, JSONSerializer.serialize(value))
    }

    static func error(_ error: GoogleError) -> HTTPResponse {
        GoogleErrorResponse.make(error)
    }

    /// `pageSize` / `pageToken` from the query, as Google's list calls take them.
    static func page(_ request: HTTPRequest) throws(GoogleError) -> PageRequest {
        var size: Int?
        if let text = request.queryItem("pageSize") {
            guard let value = Int(text) else {
                throw GoogleError.invalidArgument("Invalid value for pageSize: \(text)")
            }
            size = value
        }
        return PageRequest(size: size, token: request.queryItem("pageToken").flatMap { $0.isEmpty ? nil : $0 })
    }

    /// `{"<plural>": [...], "nextPageToken": "..."}`.
    static func list<Item>(_ plural: String, _ page: Page<Item>, json: (Item) -> JSONValue) -> HTTPResponse {
        var object = JSONObject()
        object[plural] = .array(page.items.map(json))
        if let token = page.nextPageToken { object["nextPageToken"] = .string(token) }
        return ok(.object(object))
    }

    /// Runs a list call, answering a bad page request or page token in Google's error shape.
    static func listing(_ body: () throws -> HTTPResponse) -> HTTPResponse {
        do {
            return try body()
        } catch let error as GoogleError {
            return GoogleErrorResponse.make(error)
        } catch let error as PagingError {
            return GoogleErrorResponse.make(.invalidArgument(error.message))
        } catch {
            return GoogleErrorResponse.make(.invalidArgument("\(error)"))
        }
    }

    static func lookupError(_ error: DeviceLookupError, token: String) -> HTTPResponse {
        switch error {
        case .notFound:
            return GoogleErrorResponse.make(.notFound("Device \(token) is not registered in this project."))
        case .uninstalled(let at):
            return GoogleErrorResponse.make(.notFound(
                "Device \(token) was uninstalled; FCM answers UNREGISTERED to it from \(at.rfc3339)."))
        }
    }
}
