"""One call of a client version that used FCM's removed endpoints, run by the Python of
.build-legacy/venv (Tests/EndToEnd/legacy-requirements.txt): prints what the call raised, as JSON.

    legacy_clients.py firebase-admin-send-all BASE_URL   # firebase-admin 6.9.0 send_all → BASE_URL/batch
    legacy_clients.py pyfcm BASE_URL|-                    # PyFCM 1.5.4 → BASE_URL/fcm/send, or ("-")
                                                          # its own URL, through HTTPS_PROXY
"""
import json
import sys

which, base = sys.argv[1], sys.argv[2]
out = {}
try:
    if which == "firebase-admin-send-all":
        import firebase_admin, google.oauth2.credentials
        from firebase_admin import credentials, messaging
        class Cred(credentials.Base):
            def get_credential(self):
                return google.oauth2.credentials.Credentials(token="emulator-token")
        app = firebase_admin.initialize_app(Cred(), {"projectId": "legacy"}, name="legacy")
        if base != "-":
            messaging._MessagingService.FCM_BATCH_URL = base + "/batch"
        out["version"] = firebase_admin.__version__
        messaging.send_all([messaging.Message(token="t1", data={"a": "b"})], app=app)
    elif which == "pyfcm":
        import pyfcm
        from pyfcm import FCMNotification
        if base != "-":
            FCMNotification.FCM_END_POINT = base + "/fcm/send"
        push = FCMNotification(api_key="legacy-server-key")
        out["version"] = getattr(pyfcm, "__version__", "")
        out["result"] = push.notify_single_device(registration_id="t1", message_title="hi", message_body="old")
    out["raised"] = None
except Exception as error:
    out["raised"] = type(error).__name__
    out["module"] = type(error).__module__
    out["message"] = str(error)[:300]
print(json.dumps(out))
