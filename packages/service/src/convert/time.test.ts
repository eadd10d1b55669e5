import { describe, expect, it } from "vitest";
import { secToTime } from "./time.js";

describe("secToTime", () => {
  const [minute, hour, day] = [60, 3600, 86400];
  const year = 365 * day;

  it("shows the two largest units, as Forgejo's util.SecToTime (cases from its tests)", () => {
    expect(secToTime(hour + 1)).toBe("1 hour");
    expect(secToTime(4 * 7 * day)).toBe("4 weeks");
    expect(secToTime((4 * 7 + 1) * day)).toBe("4 weeks 1 day");
    expect(secToTime(year - 25 * day)).toBe("11 months");
    expect(secToTime(year + 163 * day + 10 * hour + 11 * minute + 5)).toBe("1 year 5 months");
    expect(secToTime(66)).toBe("1 minute 6 seconds");
    expect(secToTime(52410)).toBe("14 hours 33 minutes");
    expect(secToTime(563418)).toBe("6 days 12 hours");
    expect(secToTime(1563418)).toBe("2 weeks 4 days");
    expect(secToTime(3937125)).toBe("1 month 2 weeks");
    expect(secToTime(45677465)).toBe("1 year 5 months");
  });

  it("leaves out zero units and says nothing for no time", () => {
    expect(secToTime(3600)).toBe("1 hour");
    expect(secToTime(59)).toBe("59 seconds");
    expect(secToTime(0)).toBe("");
  });
});
