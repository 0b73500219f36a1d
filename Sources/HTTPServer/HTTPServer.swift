import CNGHTTP2
import COpenSSL
import CShims

/// The version of nghttp2 this build runs with.
public func nghttp2Version() -> String {
    String(cString: nghttp2_version(0)!.pointee.version_str)
}
