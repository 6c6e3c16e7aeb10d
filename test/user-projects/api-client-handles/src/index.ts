#!/usr/bin/env node
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { pool } from './lib/db.js';
import { WeatherApi } from './lib/weatherApi.js';

const config = {
  baseUrl: process.env.WEATHER_URL ?? 'https://weather.example.com/v1',
  apiKey: process.env.WEATHER_KEY ?? 'demo-key',
};

const server = new McpServer({ name: 'travel-desk', version: '1.4.2' });

server.registerTool(
  'forecast',
  { description: 'Weather forecast for a city', inputSchema: { query: z.string(), days: z.number().int().min(1).max(5) } },
  async ({ query, days }) => {
    const api = new WeatherApi(config.baseUrl, config.apiKey);
    const cities = await api.searchCities(query);
    if (cities.length === 0) return { content: [{ type: 'text', text: `No city matches ${query}.` }] };
    const pick = await server.server.elicitInput({
      message: `Which city did you mean by "${query}"?`,
      requestedSchema: {
        type: 'object',
        properties: { city: { type: 'string', enum: cities } },
        required: ['city'],
      },
    });
    if (pick.action !== 'accept') return { content: [{ type: 'text', text: `Forecast stopped (${pick.action}).` }] };
    const forecast = await api.forecast(String(pick.content?.city), days);
    const lines = forecast.days.map(d => `day ${d.day}: ${d.summary}`);
    return { content: [{ type: 'text', text: `${forecast.city} via ${api.describe()}\n${lines.join('\n')}` }] };
  },
);

server.registerTool(
  'book_room',
  { description: 'Book a meeting room for a guest', inputSchema: { guest: z.string() } },
  async ({ guest }) => {
    const connection = await pool.connect();
    try {
      const free = await connection.freeRooms();
      if (free.length === 0) return { content: [{ type: 'text', text: 'Every room is booked.' }] };
      const answer = await server.server.elicitInput({
        message: `Which room for ${guest}?`,
        requestedSchema: { type: 'object', properties: { room: { type: 'string', enum: free } }, required: ['room'] },
      });
      if (answer.action !== 'accept') return { content: [{ type: 'text', text: `No room booked (${answer.action}).` }] };
      const count = await connection.insertBooking({ room: String(answer.content?.room), guest });
      return { content: [{ type: 'text', text: `Booked ${String(answer.content?.room)} for ${guest} (${count} bookings).` }] };
    } finally {
      connection.release();
    }
  },
);

await server.connect(new StdioServerTransport());
