export interface Forecast {
  city: string;
  days: { day: number; summary: string }[];
}

/** A small API client: holds its base URL and key, as real clients hold a socket or an agent. */
export class WeatherApi {
  private requests = 0;

  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
  ) {}

  async searchCities(query: string): Promise<string[]> {
    this.requests++;
    const all = ['Paris', 'Parma', 'Perth', 'Porto', 'Lisbon'];
    return all.filter(c => c.toLowerCase().startsWith(query.toLowerCase().slice(0, 2)));
  }

  async forecast(city: string, days: number): Promise<Forecast> {
    this.requests++;
    const summaries = ['sunny', 'cloudy', 'rain'];
    return { city, days: Array.from({ length: days }, (_, i) => ({ day: i + 1, summary: summaries[(city.length + i) % 3]! })) };
  }

  describe(): string {
    return `${new URL(this.baseUrl).host} (${this.apiKey.length}-character key)`;
  }
}
