/// One entry of `/sys/class/power_supply`: an AC adapter, a USB port that can charge, a
/// battery, a UPS — as far as deciding "mains or battery" needs it.
///
/// Each field is one of the entry's attribute files; a file that is missing or holds
/// something unexpected leaves its field `nil` (unknown) rather than guessing.
/// - SeeAlso: https://www.kernel.org/doc/Documentation/ABI/testing/sysfs-class-power
struct PowerSupply: Sendable, Equatable {
    /// The `type` file.
    enum Kind: Sendable, Equatable {
        /// "Mains": an AC adapter.
        case mains
        /// "USB" (and the older "USB_C", "USB_PD", … spellings): a port that can power the machine.
        case usb
        /// "Wireless": a charging pad.
        case wireless
        /// "Battery".
        case battery
        /// "UPS": an uninterruptible power supply the kernel knows about.
        case ups
        /// Anything else the kernel may add.
        case other(String)

        init(sysfsValue: String) {
            switch sysfsValue {
            case "Mains": self = .mains
            case "Wireless": self = .wireless
            case "Battery": self = .battery
            case "UPS": self = .ups
            case let usb where usb.hasPrefix("USB"): self = .usb
            default: self = .other(sysfsValue)
            }
        }

        /// Power from outside the machine: while one of these is online, the machine is on mains.
        var isLinePower: Bool {
            switch self {
            case .mains, .usb, .wireless: true
            case .battery, .ups, .other: false
            }
        }

        /// Stored energy the machine can run from.
        var isStoredEnergy: Bool {
            switch self {
            case .battery, .ups: true
            case .mains, .usb, .wireless, .other: false
            }
        }
    }

    /// The `status` file of a battery or UPS.
    enum Status: String, Sendable, Equatable {
        case charging = "Charging"
        case discharging = "Discharging"
        case notCharging = "Not charging"
        case full = "Full"
        case unknown = "Unknown"
    }

    /// The `scope` file: whether the supply powers this machine or a device attached to it.
    enum Scope: String, Sendable, Equatable {
        /// Powers the machine (the default when the file is missing).
        case system = "System"
        /// Powers a peripheral: a wireless mouse, a game controller.
        case device = "Device"
        case unknown = "Unknown"
    }

    /// The entry's folder name, e.g. "BAT0" or "AC".
    var name: String
    var kind: Kind
    /// The `online` file: whether line power is connected.
    var online: Bool?
    /// The `present` file: whether a battery is in its bay.
    var present: Bool?
    var status: Status?
    var scope: Scope?

    /// Whether this is stored energy the machine itself runs from: a battery or UPS that
    /// is present and not a peripheral's.
    var isSystemStoredEnergy: Bool {
        kind.isStoredEnergy && scope != .device && present != false
    }
}
