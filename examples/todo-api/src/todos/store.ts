import type { NewTodo, Todo } from "./types.js";

/** In-memory todo storage. Ids are assigned in creation order and never reused. */
export class TodoStore {
  #todos = new Map<number, Todo>();
  #nextId = 1;

  constructor(private readonly now: () => Date = () => new Date()) {}

  create(input: NewTodo): Todo {
    const todo: Todo = {
      id: this.#nextId++,
      title: input.title.trim(),
      done: input.done ?? false,
      createdAt: this.now().toISOString(),
    };
    this.#todos.set(todo.id, todo);
    return todo;
  }

  get(id: number): Todo | undefined {
    return this.#todos.get(id);
  }

  list(): Todo[] {
    return [...this.#todos.values()].sort((a, b) => a.id - b.id);
  }

  update(id: number, patch: Partial<NewTodo>): Todo | undefined {
    const current = this.#todos.get(id);
    if (!current) return undefined;
    const next = { ...current, ...patch, title: (patch.title ?? current.title).trim() };
    this.#todos.set(id, next);
    return next;
  }

  delete(id: number): boolean {
    return this.#todos.delete(id);
  }

  get size(): number {
    return this.#todos.size;
  }
}
