import HTTPServer

/// FCM's legacy HTTP API (`POST /fcm/send`) and batch endpoint (`POST /batch`), which Google shut
/// down in 2024: answered as Google answers them today, so that a backend still on an old SDK
/// fails here as it fails in production (docs/fcm.md, "The removed legacy APIs").
struct LegacyFCMRoutes {
    func register(in router: inout Router) {
        router.add("POST", "/fcm/send") { _ in Self.legacySend }
        router.add("POST", "/batch") { _ in Self.batch }
    }

    /// `/fcm/send` as captured on 2025-02-19 (decision-labs/fcm#136): 404, `text/html`, a page
    /// without the path, in Google's front end's old form.
    static let legacySend = page(
        """
        <HTML>
        <HEAD>
        <TITLE>Not Found</TITLE>
        </HEAD>
        <BODY BGCOLOR="#FFFFFF" TEXT="#000000">

        <H1>Not Found</H1>
        <H2>Error 404</H2>
        </BODY>
        </HTML>

        """)

    /// `/batch` as captured in 2025 (firebase/firebase-admin-dotnet#486 and #487; the complete page
    /// from a firebase-admin-python user): 404 and Google's error page naming the path.
    static let batch = page(
        """
        <!DOCTYPE html>
        <html lang=en>
          <meta charset=utf-8>
          <meta name=viewport content="initial-scale=1, minimum-scale=1, width=device-width">
          <title>Error 404 (Not Found)!!1</title>
          <style>
            *{margin:0;padding:0}html,code{font:15px/22px arial,sans-serif}html{background:#fff;color:#222;padding:15px}body{margin:7% auto 0;max-width:390px;min-height:180px;padding:30px 0 15px}* > body{background:url(//www.google.com/images/errors/robot.png) 100% 5px no-repeat;padding-right:205px}p{margin:11px 0 22px;overflow:hidden}ins{color:#777;text-decoration:none}a img{border:0}@media screen and (max-width:772px){body{background:none;margin-top:0;max-width:none;padding-right:0}}#logo{background:url(//www.google.com/images/branding/googlelogo/1x/googlelogo_color_150x54dp.png) no-repeat;margin-left:-5px}@media only screen and (min-resolution:192dpi){#logo{background:url(//www.google.com/images/branding/googlelogo/2x/googlelogo_color_150x54dp.png) no-repeat 0% 0%/100% 100%;-moz-border-image:url(//www.google.com/images/branding/googlelogo/2x/googlelogo_color_150x54dp.png) 0}}@media only screen and (-webkit-min-device-pixel-ratio:2){#logo{background:url(//www.google.com/images/branding/googlelogo/2x/googlelogo_color_150x54dp.png) no-repeat;-webkit-background-size:100% 100%}}#logo{display:inline-block;height:54px;width:150px}
          </style>
          <a href=//www.google.com/><span id=logo aria-label=Google></span></a>
          <p><b>404.</b> <ins>That’s an error.</ins>
          <p>The requested URL <code>/batch</code> was not found on this server.  <ins>That’s all we know.</ins>

        """)

    private static func page(_ html: String) -> HTTPResponse {
        HTTPResponse(status: 404, headers: ["content-type": "text/html; charset=UTF-8"], body: .bytes(Array(html.utf8)))
    }
}
