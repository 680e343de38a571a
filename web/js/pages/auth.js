// Sign up and log in (POST /api/v1/signup, /api/v1/login). Both set the session cookie.
import {api} from '../api.js';
import {h, mount, formValues} from '../dom.js';
import {sessionChanged} from '../app.js';

const USER_RULE = '3 to 32 of a-z, 0-9 and _, starting with a letter';
const PASSWORD_RULE = '10 to 128 characters';

function authForm(id, title, button, submit, footer) {
  const signingUp = id === 'signup-form';
  // The rules are shown before the first attempt where a new name and password are chosen.
  const rule = (name, text) =>
    signingUp ? h('small', {class: 'muted', id: id + '-' + name + '-rule'}, text) : null;
  const error = h('p', {class: 'error', id: id + '-error'});
  const form = h('form', {class: 'stack', id},
    h('label', null, 'User name',
      h('input', {name: 'user', autocomplete: 'username', required: true, maxlength: 32,
                  pattern: '[a-z][a-z0-9_]{2,31}', autocapitalize: 'none', title: USER_RULE}),
      rule('user', USER_RULE)),
    h('label', null, 'Password',
      h('input', {name: 'password', type: 'password', required: true, minlength: 10, maxlength: 128,
                  autocomplete: signingUp ? 'new-password' : 'current-password'}),
      rule('password', PASSWORD_RULE)),
    h('button', {type: 'submit'}, button),
    error);
  // An error is about the attempt that failed: editing the form starts the next one.
  form.addEventListener('input', () => { error.textContent = ''; });
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.textContent = '';
    const button = form.querySelector('button');
    button.disabled = true;
    try {
      await submit(formValues(form));
      await sessionChanged('#/');
    } catch (e) {
      error.textContent = e.message;
    } finally {
      button.disabled = false;
    }
  });
  return [h('h1', null, title), form, h('p', null, footer)];
}

export function loginPage(main) {
  mount(main, authForm('login-form', 'Log in', 'Log in',
    (v) => api('POST', '/login', {user: v.user, password: v.password}),
    ['No account? ', h('a', {href: '#/signup'}, 'Sign up')]));
}

export function signupPage(main) {
  mount(main, authForm('signup-form', 'Sign up', 'Create account',
    (v) => api('POST', '/signup', {user: v.user, password: v.password}),
    ['Have an account? ', h('a', {href: '#/login'}, 'Log in')]));
}
