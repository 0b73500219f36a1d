extension GoogleError {
    /// 403 PERMISSION_DENIED for an access token without the scope the API needs, as Google
    /// words it, with a `google.rpc.ErrorInfo` reason `ACCESS_TOKEN_SCOPE_INSUFFICIENT`.
    public static func insufficientScope(
        method: String = "google.firebase.fcm.v1.FcmService.SendMessage",
        service: String = "fcm.googleapis.com"
    ) -> GoogleError {
        GoogleError(
            status: .permissionDenied, message: "Request had insufficient authentication scopes.",
            details: [
                GoogleErrorDetail.errorInfo(
                    reason: "ACCESS_TOKEN_SCOPE_INSUFFICIENT", domain: "googleapis.com",
                    metadata: [("method", method), ("service", service)])
            ])
    }
}
