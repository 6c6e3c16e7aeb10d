/**
 * The tracker's HTTP API, as the server calls it. Every call lands in the effects log (a stand-in for the
 * remote service's own records), so a duplicated call shows in the tally.
 */
import { randomUUID } from 'node:crypto';
import { recordEffect } from './effects.js';

export interface Project {
  id: string;
  name: string;
  createdAt: string;
}

export class TrackerClient {
  constructor(private readonly baseUrl: string, private readonly token: string) {}

  async createProject(name: string): Promise<Project> {
    recordEffect(`POST ${this.baseUrl}/projects ${name}`);
    return { id: `p-${randomUUID().slice(0, 8)}`, name, createdAt: new Date().toISOString() };
  }

  async addTask(projectName: string, title: string): Promise<{ position: number }> {
    recordEffect(`POST ${this.baseUrl}/projects/${projectName}/tasks ${title}`);
    return { position: title.length };
  }

  async publish(projectId: string): Promise<void> {
    recordEffect(`POST ${this.baseUrl}/projects/${projectId}/publish`);
  }

  async remove(path: string): Promise<boolean> {
    recordEffect(`DELETE ${this.baseUrl}/files/${path}`);
    return true;
  }

  describe(): string {
    return `${this.baseUrl} as ${this.token.slice(0, 3)}…`;
  }
}
