import Testing
@testable import SyncAgentKit

/// The D-Bus messages ``SleepInhibitor`` writes and reads without GIO.
struct DBusMessageTests {
    @Test func aMethodCallIsMarshalledAsTheSpecificationSays() throws {
        let bytes = DBusMessage.methodCall(serial: 7, destination: "a.b", path: "/p", interface: "a.B", member: "M",
                                           arguments: ["xy"], noAutoStart: true)
        // Little-endian, a method call, NO_AUTO_START, version 1; the body is one string.
        #expect(Array(bytes.prefix(4)) == [UInt8(ascii: "l"), 1, 2, 1])
        #expect(Array(bytes[4..<8]) == [7, 0, 0, 0], "body length: 4 + 2 + 1")
        #expect(Array(bytes[8..<12]) == [7, 0, 0, 0], "serial")
        // PATH as an object path: code 1, signature "o", length 2, "/p", 0.
        #expect(Array(bytes[16..<26]) == [1, 1, UInt8(ascii: "o"), 0, 2, 0, 0, 0, UInt8(ascii: "/"), UInt8(ascii: "p")])
        #expect(Array(bytes.suffix(7)) == [2, 0, 0, 0, UInt8(ascii: "x"), UInt8(ascii: "y"), 0])
        #expect((bytes.count - 7) % 8 == 0, "the body starts on an 8-byte boundary")

        let read = try DBusMessage(bytes[...])
        #expect(read.kind == .methodCall && read.serial == 7 && read.signature == "s" && read.firstString == "xy")
        #expect(try DBusMessage.length(startingAt: bytes[...]) == bytes.count)
        #expect(try DBusMessage.length(startingAt: bytes.prefix(15)) == nil)
    }

    @Test func aBigEndianReplyWithADescriptorIsRead() throws {
        // A method return to serial 2 with one descriptor: fields REPLY_SERIAL (5, "u"),
        // SIGNATURE (8, "g" "h") and UNIX_FDS (9, "u"); the body, handle 0.
        var fields: [UInt8] = [5, 1, UInt8(ascii: "u"), 0, 0, 0, 0, 2]
        fields += [8, 1, UInt8(ascii: "g"), 0, 1, UInt8(ascii: "h"), 0, 0]
        fields += [9, 1, UInt8(ascii: "u"), 0, 0, 0, 0, 1]
        let bytes: [UInt8] = [UInt8(ascii: "B"), 2, 0, 1, 0, 0, 0, 4, 0, 0, 0, 9, 0, 0, 0, UInt8(fields.count)] + fields + [0, 0, 0, 0]
        let reply = try DBusMessage(bytes[...])
        #expect(reply.kind == .methodReturn && reply.serial == 9 && reply.replySerial == 2)
        #expect(reply.signature == "h" && reply.unixFDCount == 1 && reply.firstUInt32 == 0)
    }

    @Test func brokenMessagesAreRefusedNotReadPastTheirEnd() {
        let call = DBusMessage.methodCall(serial: 1, destination: "a.b", path: "/p", interface: "a.B", member: "M", arguments: ["xy"])
        #expect(throws: DBusMessage.Malformed.self) { try DBusMessage(call.dropLast()) }
        var order = call
        order[0] = UInt8(ascii: "x")
        #expect(throws: DBusMessage.Malformed.self) { try DBusMessage(order[...]) }
        var huge = call
        huge[7] = 0x10
        #expect(throws: DBusMessage.Malformed.self) { try DBusMessage.length(startingAt: huge[...]) }
        var overrun = call
        overrun[12] = 200
        #expect(throws: DBusMessage.Malformed.self) { try DBusMessage(overrun[...]) }
    }

    @Test func busAddressesGiveTheirUnixSocketsInOrder() {
        #expect(DBusAddress("unix:path=/run/dbus/system_bus_socket").sockets == [.path("/run/dbus/system_bus_socket")])
        #expect(DBusAddress("unix:path=/tmp/a%20b/bus,guid=e346").sockets == [.path("/tmp/a b/bus")])
        #expect(DBusAddress("tcp:host=localhost,port=1;unix:guid=1,abstract=/tmp/dbus-x;unix:path=/s").sockets
            == [.abstract("/tmp/dbus-x"), .path("/s")])
        #expect(DBusAddress("unix:path=/bad%2").sockets == [])
        #expect(DBusAddress.Socket.abstract("/tmp/dbus-x").name == "@/tmp/dbus-x" && DBusAddress.Socket.path("/s").name == "/s")
        #expect(DBusAddress.systemBus(environment: nil).sockets == [.path("/var/run/dbus/system_bus_socket")])
        #expect(DBusAddress.systemBus(environment: "").sockets == [.path("/var/run/dbus/system_bus_socket")])
    }
}
