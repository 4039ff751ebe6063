// Tasks: active, archived or all; priority then due order; a form to add one.
import { send, withQuery } from './api.js';
import { h, badge } from './view.js';
import { directionControl } from './screen.js';

function row(task) {
  return h(`li.row.task.priority-${task.priority}`, {},
    h('div.main', {},
      h('strong.title', {}, task.title),
      h('span.meta', {}, task.formattedDueDate)),
    h('div.side', {},
      badge(task.priorityLabel, `priority-${task.priority}`),
      h(`span.due${task.isOverdue ? '.overdue' : ''}`, {}, task.dueLabel)));
}

/** The add form: what the server refuses is shown next to the field it names. */
function addForm(screen) {
  const field = (name, label, control) => {
    const message = h('span.field-error', { id: `task-${name}-error`, 'aria-live': 'polite' });
    control.id = `task-${name}`;
    control.name = name;
    control.setAttribute('aria-describedby', message.id);
    return { name, control, message, element: h('div.field', {}, h('label', { for: control.id }, label), control, message) };
  };
  const fields = [
    field('title', 'New task', h('input', { type: 'text', placeholder: 'What needs doing?', autocomplete: 'off' })),
    field('priority', 'Priority', h('select', {}, ['low', 'medium', 'high', 'urgent'].map((p) => h('option', { value: p }, p[0].toUpperCase() + p.slice(1))))),
    field('dueDate', 'Due', h('input', { type: 'date' })),
  ];
  fields[1].control.value = 'medium';
  const submit = h('button.primary', { type: 'submit' }, 'Add task');
  const form = h('form.add', { 'aria-label': 'Add a task', novalidate: true }, fields.map((f) => f.element), submit);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const body = {};
    for (const { name, control, message } of fields) {
      message.textContent = '';
      control.removeAttribute('aria-invalid');
      if (control.value !== '') body[name] = control.value;
    }
    if (body.title === undefined) body.title = '';
    submit.disabled = true;
    try {
      // The due date is read as the end of that day in the page's time zone.
      const task = await send('POST', withQuery('/tasks', screen.app.display()), { body });
      fields[0].control.value = '';
      fields[2].control.value = '';
      screen.tell(`Added “${task.title}”.`, 'success');
    } catch (problem) {
      for (const error of problem.errors) {
        const target = fields.find((f) => f.name === error.field);
        if (target) {
          target.message.textContent = error.detail;
          target.control.setAttribute('aria-invalid', 'true');
        }
      }
      screen.tell(problem.message);
      fields.find((f) => f.control.getAttribute('aria-invalid'))?.control.focus();
    }
    submit.disabled = false;
  });
  screen.element.insertBefore(form, screen.layout);
}

export const tasks = {
  name: 'tasks', path: '/tasks', title: 'Tasks', pageSize: 50, row,
  bulkActions: [['archive', 'Archive'], ['delete', 'Delete']],
  empty: 'No tasks here.',
  noun: (n, formatted) => `${formatted} ${n === 1 ? 'task' : 'tasks'}`,
  defaults: { view: 'active', q: '', sort: 'priority', order: 'desc', group: '' },
  groupSorts: { due: 'dueDate', priority: 'priority' },
  controls: [
    { kind: 'chips', key: 'view', label: 'Show', options: [['active', 'Active'], ['archived', 'Archived'], ['all', 'All']] },
    { kind: 'search', key: 'q', label: 'Search titles' },
    { kind: 'picker', key: 'sort', label: 'Sort by', options: [['priority', 'Priority, then due'], ['dueDate', 'Due date'], ['title', 'Title']] },
    { kind: 'picker', key: 'group', label: 'Group by', options: [['', 'None'], ['due', 'Due'], ['priority', 'Priority']] },
    directionControl,
  ],
  extend: (screen) => { addForm(screen); return null; },
};
