export interface Todo {
  id: number;
  title: string;
  done: boolean;
  createdAt: string;
}

export interface NewTodo {
  title: string;
  done?: boolean;
}
