import Testing
@testable import SyncAgentKit

/// The defaults `ConditionReadings` applies when a source is missing.
struct ConditionReadingsTests {
    @Test func upowerDecidesPowerAndTheFolderIsNotRead() {
        var folderReads = 0
        let onBattery = ConditionReadings(upowerOnBattery: true, network: .init(available: true, metered: false))
        let onMains = ConditionReadings(upowerOnBattery: false, network: .init(available: true, metered: false))

        let battery = onBattery.conditions { folderReads += 1; return true }
        let mains = onMains.conditions { folderReads += 1; return false }

        #expect(!battery.onMainsPower)
        #expect(mains.onMainsPower)
        #expect(folderReads == 0)
        #expect(!onBattery.powerFromSupplyFolder)
    }

    @Test(arguments: [true, false])
    func withoutUPowerTheFolderDecidesPower(folderSaysMains: Bool) {
        let readings = ConditionReadings(upowerOnBattery: nil, network: .init(available: true, metered: false))

        #expect(readings.conditions { folderSaysMains }.onMainsPower == folderSaysMains)
        #expect(readings.powerFromSupplyFolder)
    }

    @Test func theNetworkMonitorDecidesTheNetwork() {
        let readings = ConditionReadings(upowerOnBattery: false, network: .init(available: false, metered: true))

        let conditions = readings.conditions { true }

        #expect(conditions == Conditions(onMainsPower: true, networkAvailable: false, networkMetered: true))
        #expect(!conditions.allowDiscretionaryWork)
    }

    @Test func withNoSourceAtAllDiscretionaryWorkMayRunOnMains() {
        let conditions = ConditionReadings().conditions { true }

        #expect(conditions == Conditions(onMainsPower: true, networkAvailable: true, networkMetered: false))
        #expect(conditions.allowDiscretionaryWork)
    }

    @Test func withNoSourceAtAllABatteryInUseStillHoldsWorkBack() {
        let conditions = ConditionReadings().conditions { false }

        #expect(!conditions.onMainsPower)
        #expect(!conditions.allowDiscretionaryWork)
    }
}
