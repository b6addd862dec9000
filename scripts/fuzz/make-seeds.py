#!/usr/bin/env python3
"""Writes the committed seed corpora of the fuzz targets, Fuzz/corpus/<target>/ (CONTRIBUTING.md "Fuzzing").

    scripts/fuzz/make-seeds.py [CORPUS_DIR]        (default: Fuzz/corpus)

Small real inputs of each parser: typed heights, dates, languages and emails; the cache files as
fitiq-tui writes them (the cache tests' fixtures: account.json of both schema versions, a history
segment); server answers in the production
shape and the spec's (docs/contract/CONTRACT.md §7); a small Apple Health export from
scripts/health/make-health-export.py; zip archives, stored, deflated and ZIP64, built by hand.
Deterministic: running it again writes the same bytes. Python 3.9+, standard library only.
"""
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# (selector, text): the first byte picks the parser (Fuzz/Targets/text.swift).
TEXT = [
    ("0", t) for t in ("180.5", "180.5 cm", "1.8 m", "1805 mm", "71 in", '71"', "5 ft 11 in", "5'11\"", "5\u203211\u2033",
                       "5.9 ft", "5ft11", "6'1", "5'13\"", "180,5", ".5 m",
                       # weights and body fat
                       "72.4 kg", "160.4 lbs", "11 st 4 lb", "11st4", "4.4 lb", "1400 lb", "18.5 %", "72,4")
] + [
    ("1", t) for t in ("1990-01-01", "2012-06-15", "1983-07-20T23:30:00-05:00", "2024-01-15T08:00:00.123Z",
                       "2000-02-29", "1900-02-29")
] + [("2", t) for t in ("en", "pt-BR", "es_419", "ZH-hant", "Imperial")] + [
    ("3", t) for t in ("m@x.io", " someone@example.com ", "a@b@c", "pass word")
] + [("4", "Marcos Barbero"), ("5", "bio \x1b[2Jcleared\x1b]0;title\x07 \u202eevil"), ("5", "~/keys/fitiq.key")] + [
    ("6", t) for t in ("https://api.example.com/", "http://127.0.0.1:8080", "http://[::1]:9/", "http://example.com")
] + [
    ("7", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyLTEiLCJlbWFpbCI6Im1AeC5pbyIsImV4cCI6MTcwMDAwMDYwMCwiaWF0IjoxNzAwMDAwMDAwfQ.c2ln")
]

SESSION = """{
  "schemaVersion" : 1,
  "session" : {
    "account" : {
      "server" : "http://127.0.0.1:8080",
      "userId" : "5b1c7f0e-0b8e-4c4e-9a51-3f1f2b8f9d10"
    },
    "apiKey" : "dev-api-key",
    "email" : "demo@fitiq.dev",
    "tokens" : {
      "accessToken" : "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyLTEiLCJleHAiOjE3MDAwMDA2MDB9.c2ln",
      "refreshToken" : "r-0c3d9a7e"
    },
    "tokensReceivedAt" : 817174086.2518437
  }
}"""

CURRENT = """{
  "byServer" : {
    "http://127.0.0.1:8080" : "5b1c7f0e-0b8e-4c4e-9a51-3f1f2b8f9d10"
  },
  "last" : {
    "server" : "http://127.0.0.1:8080",
    "userId" : "5b1c7f0e-0b8e-4c4e-9a51-3f1f2b8f9d10"
  },
  "schemaVersion" : 1
}"""

CONFIG = '{"server": "https://api.example.com", "apiKeyFile": "~/.config/fitiq/api-key"}'

PROFILE_SPEC = ('{"id":"p","user_id":"u","name":"Flat","bio":"b","preferred_unit_system":"imperial",'
                '"language_code":"pt-BR","date_of_birth":"1983-07-20","height_cm":"180.5",'
                '"created_at":"2025-01-27T10:00:00.123Z","updated_at":"2025-01-27T10:00:00Z"}')
WIRE = {
    "tokens-production.json": '{"data":{"access_token":"a.b.c","refresh_token":"r1","token_type":"Bearer"}}',
    "tokens-spec.json": '{"access_token":"a.b.c","refresh_token":"r1"}',
    "register-production.json": '{"data":{"user_id":"u-1","email":"m@x.io","access_token":"a.b.c","refresh_token":"r"}}',
    "register-spec.json": '{"id":42,"email":"m@x.io","access_token":"a.b.c","refresh_token":"r"}',
    "profile-get-production.json": (
        '{"data":{"id":"user-1","email":"m@x.io","profile":{"id":"prof-1","name":"Marcos","bio":null,'
        '"preferred_unit_system":"metric","language_code":"en","date_of_birth":"1983-07-19T00:00:00Z",'
        '"biological_sex":null,"height_cm":null,"created_at":"2025-01-27T10:00:00Z",'
        '"updated_at":"2025-01-27T10:00:00Z"}}}'),
    "profile-patch-production.json": (
        '{"data":{"profile":{"id":"p","name":"Test User","preferred_unit_system":"metric","language_code":"en",'
        '"biological_sex":"male","height_cm":175.5,"date_of_birth":"1990-01-01T00:00:00Z"}}}'),
    "profile-spec.json": PROFILE_SPEC,
    "profile-spec-envelope.json": '{"data":' + PROFILE_SPEC + '}',
    "progress-entry-production.json": (
        '{"data":{"id":"e1","type":"height","quantity":180.5,"date":"2024-01-15T08:00:00Z","notes":"n"}}'),
    "progress-entry-spec.json": '{"id":7,"type":"height","quantity":"180","logged_at":"2024-01-15T08:00:00+01:00"}',
    "progress-page-production.json": (
        '{"data":{"entries":[{"id":"e1","type":"height","quantity":180.5,"date":"2024-01-15T08:00:00Z"}],'
        '"total":250,"limit":100,"offset":100}}'),
    "progress-page-spec.json": '[{"id":"e2","type":"height","quantity":181,"logged_at":"2024-02-01T00:00:00Z"}]',
    "error-production.json": '{"error":{"message":"Invalid request payload","code":"X"}}',
    "error-spec.json": '{"error":"exists","message":"profile exists"}',
    "error-html.html": "<html><body>502 Bad Gateway</body></html>",
}

# Every unit of a weight, a body fat fraction and a Correlation repeating a record, small.
BODY_UNITS = """<?xml version="1.0" encoding="UTF-8"?>
<HealthData locale="fr_FR">
 <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Sant\u00e9" unit="kg" startDate="2025-05-01 07:00:10 +0200" value="72.4"/>
 <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Withings" unit="g" startDate="2025-05-01 07:00:14 +0200" value="72400"/>
 <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Health" unit="lb" startDate="2025-05-02 07:00:00 +0200" value="159.6"/>
 <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Health" unit="st" startDate="2025-05-03 07:00:00 +0200" value="11.4"/>
 <Record type="HKQuantityTypeIdentifierBodyFatPercentage" sourceName="Withings" unit="%" startDate="2025-05-01 07:00:10 +0200" value="0.162"/>
 <Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="Withings" startDate="2025-05-01 07:00:10 +0200" endDate="2025-05-01 07:00:10 +0200">
  <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Sant\u00e9" unit="kg" startDate="2025-05-01 07:00:10 +0200" value="72.4"/>
 </Correlation>
</HealthData>
"""

NAME = b"apple_health_export/export.xml"


def member_archive(document, zip64=False, stored=False, extra_members=()):
    """An archive of `document` as NAME (deflated or stored), optionally written as ZIP64 throughout."""
    members = list(extra_members) + [(NAME, document)]
    blob, directory = b"", b""
    for name, content in members:
        method = 0 if stored or not content else 8
        if method == 8:
            c = zlib.compressobj(9, zlib.DEFLATED, -15)
            data = c.compress(content) + c.flush()
        else:
            data = content
        crc = zlib.crc32(content)
        offset = len(blob)
        if zip64:
            local_extra = struct.pack("<HHQQ", 1, 16, len(content), len(data))
            local = struct.pack("<IHHHHHIIIHH", 0x04034B50, 45, 0, method, 0, 0, crc, 0xFFFFFFFF, 0xFFFFFFFF,
                                len(name), len(local_extra)) + name + local_extra
            cd_extra = struct.pack("<HHQQQ", 1, 24, len(content), len(data), offset)
            directory += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 45, 45, 0, method, 0, 0, crc, 0xFFFFFFFF,
                                     0xFFFFFFFF, len(name), len(cd_extra), 0, 0, 0, 0, 0xFFFFFFFF) + name + cd_extra
        else:
            local = struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, method, 0, 0, crc, len(data), len(content),
                                len(name), 0) + name
            directory += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, method, 0, 0, crc, len(data),
                                     len(content), len(name), 0, 0, 0, 0, 0, offset) + name
        blob += local + data
    start = len(blob)
    if zip64:
        record = struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 45, 45, 0, 0, len(members), len(members),
                             len(directory), start)
        locator = struct.pack("<IIQI", 0x07064B50, 0, start + len(directory), 1)
        end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 0xFFFF, 0xFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0)
        return blob + directory + record + locator + end
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(members), len(members), len(directory), start, 0)
    return blob + directory + end


def write(path, content):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(content.encode() if isinstance(content, str) else content)


# import-csv's formats, with quoting, a byte-order mark, CRLF, other separators and bad rows.
CSV = {
    "fitiq.csv": "logged_at,metric,value,unit,source,id\r\n"
                 "2025-03-01T12:00:00+01:00,weight,80.20,kg,manual,a\r\n"
                 "2025-03-01T12:00:00+01:00,height,70.87,in,server,\"b,c\"\r\n"
                 "2025-03-01T12:00:00+01:00,bmi,24.70,kg/m²,derived,a\r\n",
    "openscale.csv": '"dateTime","weight","fat","water"\n"01.03.2025 07:45","80.2","18.5","55.0"\n'
                     '"02.03.2025 07:50","79.9","0.0","0.0"\n',
    "wger.csv": "\ufeffDate,Weight\n2025-03-01,80.5\n2025-03-02,heavy\n",
    "semicolons.csv": "date;weight\n2025-03-01;\"80,5\"\n2025-13-40;81\n\"2025-03-03;9000\n",
}


def schema_three(v2_path):
    """The account of a schema 2 account.json as schema 3 writes it: account.json naming its parts,
    the index of its segments, and its height's summary (the series as one flat array)."""
    with open(v2_path, encoding="utf-8") as f:
        v2 = json.load(f)
    compact = lambda value: json.dumps(value, separators=(",", ":"), sort_keys=True).encode()
    account = {"history": {"index": "index.7.json", "journal": v2["history"]["journal"], "nextGeneration": 9},
               "schemaVersion": 3, "state": v2["state"], "summaries": {"height": "summary-height.8.json"}}
    summary = dict(v2["summaries"]["height"])
    summary["series"] = [number for point in summary["series"] for number in point]
    latest = summary["latest"]
    summary["latest"] = {key: [entry.get(key) for entry in latest]
                         for key in ("id", "loggedAt", "notes", "quantity", "serverId", "source")}
    summary.update(schemaVersion=1, type="height")
    return {"account-v3.json": compact(account),
            "history-index.json": compact({"schemaVersion": 1, "segments": v2["history"]["segments"]}),
            "history-summary.json": compact(summary)}


ACTIVITY = """\
<?xml version="1.0" encoding="UTF-8"?>
<HealthData locale="en_US">
 <ExportDate value="2025-03-03 08:00:00 +0100"/>
 <Me HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale"/>
 <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Jane’s iPhone" unit="count" startDate="2025-03-01 08:00:00 +0100" endDate="2025-03-01 08:10:00 +0100" value="1200"/>
 <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Jane’s Apple Watch" unit="count" startDate="2025-03-01 08:00:00 +0100" endDate="2025-03-01 08:10:00 +0100" value="1150"/>
 <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Jane’s iPhone" unit="count" startDate="2025-03-01 23:50:00 +0100" endDate="2025-03-02 00:05:00 +0100" value="300"/>
 <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Jane’s Apple Watch" unit="count" startDate="2025-03-01 12:00:00 +0100" endDate="2025-03-01 12:30:00 +0100" value="2000"/>
 <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Jane’s iPhone" unit="count" startDate="2025-03-02 09:00:00 -0500" endDate="2025-03-02 09:10:00 -0500" value="500"/>
 <Record type="HKQuantityTypeIdentifierDistanceWalkingRunning" sourceName="Jane’s iPhone" unit="mi" startDate="2025-03-01 08:00:00 +0100" endDate="2025-03-01 08:10:00 +0100" value="1"/>
 <Record type="HKQuantityTypeIdentifierActiveEnergyBurned" sourceName="Jane’s Apple Watch" unit="kcal" startDate="2025-03-01 08:00:00 +0100" endDate="2025-03-01 08:10:00 +0100" value="150.5"/>
 <Record type="HKQuantityTypeIdentifierBasalEnergyBurned" sourceName="Jane’s Apple Watch" unit="kJ" startDate="2025-03-01 08:00:00 +0100" endDate="2025-03-01 20:00:00 +0100" value="4184"/>
 <Record type="HKQuantityTypeIdentifierDietaryWater" sourceName="WaterMinder" unit="mL" startDate="2025-03-01 09:00:00 +0100" endDate="2025-03-01 09:00:00 +0100" value="250"/>
 <Record type="HKQuantityTypeIdentifierDietaryWater" sourceName="WaterMinder" unit="mL" startDate="2025-03-01 15:00:00 +0100" endDate="2025-03-01 15:00:00 +0100" value="500"/>
 <Record type="HKQuantityTypeIdentifierDietaryProtein" sourceName="MyFitnessPal" unit="g" startDate="2025-03-01 13:00:00 +0100" endDate="2025-03-01 13:00:00 +0100" value="30"/>
 <Record type="HKQuantityTypeIdentifierRestingHeartRate" sourceName="Jane’s Apple Watch" unit="count/min" startDate="2025-03-01 07:00:00 +0100" endDate="2025-03-01 23:00:00 +0100" value="58"/>
 <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Jane’s Apple Watch" unit="count/min" startDate="2025-03-01 07:00:00 +0100" endDate="2025-03-01 07:00:00 +0100" value="90"/>
 <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Jane’s iPhone" startDate="2025-03-01 22:30:00 +0100" endDate="2025-03-02 07:30:00 +0100" value="HKCategoryValueSleepAnalysisInBed"/>
 <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Jane’s Apple Watch" startDate="2025-03-01 23:00:00 +0100" endDate="2025-03-02 01:00:00 +0100" value="HKCategoryValueSleepAnalysisAsleepCore"/>
 <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Jane’s Apple Watch" startDate="2025-03-02 01:00:00 +0100" endDate="2025-03-02 02:00:00 +0100" value="HKCategoryValueSleepAnalysisAsleepDeep"/>
 <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Jane’s Apple Watch" startDate="2025-03-02 02:00:00 +0100" endDate="2025-03-02 02:30:00 +0100" value="HKCategoryValueSleepAnalysisAwake"/>
 <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Jane’s Apple Watch" startDate="2025-03-02 02:30:00 +0100" endDate="2025-03-02 06:30:00 +0100" value="HKCategoryValueSleepAnalysisAsleepREM"/>
 <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Old Watch" startDate="2025-03-02 23:00:00 +0100" endDate="2025-03-03 05:00:00 +0100" value="HKCategoryValueSleepAnalysisAsleep"/>
</HealthData>
"""


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "Fuzz", "corpus")
    for target in ("text", "cache", "wire", "health-xml", "zip", "csv"):
        shutil.rmtree(os.path.join(out, target), ignore_errors=True)
    for index, (selector, text) in enumerate(TEXT):
        write(os.path.join(out, "text", f"{index:02d}.txt"), selector + text)
    fixtures = os.path.join(ROOT, "Tests", "FitIQCacheTests", "Fixtures")
    with open(os.path.join(fixtures, "account-v1.json"), "rb") as f:
        write(os.path.join(out, "cache", "account.json"), f.read())
    # The current layout: account.json of schema 2 and one month segment of its history.
    with open(os.path.join(fixtures, "account-v2", "account.json"), "rb") as f:
        write(os.path.join(out, "cache", "account-v2.json"), f.read())
    with open(os.path.join(fixtures, "account-v2", "history", "height-2026-01.2.json"), "rb") as f:
        write(os.path.join(out, "cache", "history-segment.json"), f.read())
    # The current layout: account.json of schema 3 and the parts it names, made from the same account.
    for name, content in schema_three(os.path.join(fixtures, "account-v2", "account.json")).items():
        write(os.path.join(out, "cache", name), content)
    with open(os.path.join(fixtures, "goals-v1.json"), "rb") as f:
        write(os.path.join(out, "cache", "goals.json"), f.read())
    write(os.path.join(out, "cache", "session.json"), SESSION)
    write(os.path.join(out, "cache", "current.json"), CURRENT)
    write(os.path.join(out, "cache", "config.json"), CONFIG)
    for name, body in WIRE.items():
        write(os.path.join(out, "wire", name), body)
    for name, body in CSV.items():
        write(os.path.join(out, "csv", name), body)
    with tempfile.TemporaryDirectory() as folder:
        exports = {}
        for name, options in (("none", ["--dtd", "none"]), ("ios16", ["--dtd", "ios16"]),
                              ("body", ["--dtd", "none", "--weights", "3", "--body-fat", "2"])):
            path = os.path.join(folder, f"export-{name}.xml")
            subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "health", "make-health-export.py"),
                            "--mb", "0.002", "--heights", "3", "--routes", "0", "--out", path] + options,
                           check=True, capture_output=True)
            with open(path, "rb") as f:
                exports[name] = f.read()
    write(os.path.join(out, "health-xml", "export.xml"), exports["none"])
    write(os.path.join(out, "health-xml", "export-doctype.xml"), exports["ios16"])
    # weights and body fat: several sources, kg / lb / st / g, a fraction in %, a Correlation's repeat
    write(os.path.join(out, "health-xml", "export-body.xml"), exports["body"])
    write(os.path.join(out, "health-xml", "body-units.xml"), BODY_UNITS)
    # steps from a phone and a watch, energy in kcal and kJ, water, food, resting heart rate, sleep stages
    write(os.path.join(out, "health-xml", "export-activity.xml"), ACTIVITY)
    write(os.path.join(out, "health-xml", "minimal.xml"),
          '<?xml version="1.0"?>\n<HealthData><Me HKCharacteristicTypeIdentifierDateOfBirth=""/></HealthData>\n')
    document = exports["none"]
    write(os.path.join(out, "zip", "deflated.zip"), member_archive(document))
    small = (b'<?xml version="1.0" encoding="UTF-8"?>\n<HealthData locale="en_US">\n'
             b' <ExportDate value="2025-06-01 09:12:44 +0200"/>\n'
             b' <Record type="HKQuantityTypeIdentifierHeight" unit="cm" startDate="2025-05-01 19:30:00 -0500"'
             b' value="171"/>\n</HealthData>\n')
    write(os.path.join(out, "zip", "stored.zip"), member_archive(small, stored=True))
    write(os.path.join(out, "zip", "zip64.zip"), member_archive(document, zip64=True))
    write(os.path.join(out, "zip", "folders.zip"),
          member_archive(document, extra_members=[(b"apple_health_export/", b""),
                                                  (b"apple_health_export/workout-routes/route.gpx", b"<gpx/>")]))


if __name__ == "__main__":
    main()
