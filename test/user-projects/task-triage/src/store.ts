export interface Task {
  id: string;
  title: string;
  priority: 'low' | 'high';
}

/** The team's tasks, kept in memory; open() hands out the tasks themselves. */
export class TaskStore {
  private readonly tasks: Task[] = [
    { id: 't1', title: 'Write the docs', priority: 'low' },
    { id: 't2', title: 'Fix the login bug', priority: 'low' },
  ];
  reads = 0;

  async open(): Promise<Task[]> {
    this.reads++;
    return this.tasks.filter(t => t.priority === 'low');
  }

  all(): Task[] {
    return this.tasks;
  }
}
