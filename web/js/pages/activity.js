// Activity: one's own activity log (GET /api/v1/users/{me}/activity), newest first, and a form
// to record an event (POST /api/v1/activity).
import {api, seg} from '../api.js';
import {h, mount, formatTime, toast, formValues} from '../dom.js';
import {session} from '../session.js';
import {pagedList} from './posts.js';

function eventRow(event) {
  return h('div', {class: 'card activity-item'},
    h('div', {class: 'post-head'},
      h('b', {class: 'activity-name'}, event.name),
      h('span', {class: 'muted'}, formatTime(event.time_ms))),
    event.payload ? h('div', {class: 'post-text activity-payload'},
      typeof event.payload === 'string' ? event.payload : JSON.stringify(event.payload)) : null);
}

export async function activityPage(main) {
  const list = h('section', {id: 'activity-list'});
  const form = h('form', {class: 'inline card', id: 'activity-form'},
    h('label', null, 'Event', h('input', {name: 'name', required: true, maxlength: 100,
                                          placeholder: 'e.g. viewed_item'})),
    h('label', null, 'Payload', h('input', {name: 'payload', maxlength: 4096})),
    h('button', {type: 'submit'}, 'Record'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const v = formValues(form);
    try {
      await api('POST', '/activity', v.payload ? v : {name: v.name});
      form.reset();
      toast('Recorded');
      await load();
    } catch (e) {
      toast(e.message, true);
    }
  });
  async function load() {
    await pagedList(list, '/users/' + seg(session.me) + '/activity', eventRow,
                    {limit: 20, empty: 'No activity recorded.'});
  }
  mount(main, h('h1', null, 'Activity'), form, list);
  await load();
}
