import HTTPServer
import PushCore
