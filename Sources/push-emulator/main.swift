import PushAPI
print("push-emulator")
