// Sign up and log in (POST /api/v1/signup, /api/v1/login). Both set the session cookie.
import {api} from '../api.js';
import {h, mount, formValues} from '../dom.js';
import {sessionChanged} from '../app.js';

function authForm(id, title, button, submit, footer) {
  const error = h('p', {class: 'error', id: id + '-error'});
  const form = h('form', {class: 'stack', id},
    h('label', null, 'User name',
      h('input', {name: 'user', autocomplete: 'username', required: true, maxlength: 32,
                  pattern: '[a-z][a-z0-9_]{2,31}', autocapitalize: 'none',
                  title: '3 to 32 of a-z, 0-9 and _, starting with a letter'})),
    h('label', null, 'Password',
      h('input', {name: 'password', type: 'password', required: true, minlength: 10, maxlength: 128,
                  autocomplete: id === 'signup-form' ? 'new-password' : 'current-password'})),
    h('button', {type: 'submit'}, button),
    error);
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
