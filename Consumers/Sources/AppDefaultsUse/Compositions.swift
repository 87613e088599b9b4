import ObservableKit

// A sign-up form as a main-actor view model. The confined compositions take plain closures
// that touch main-actor state; the shared ones keep the main actor for their handlers.

final class SignUpViewModel {
  let name = Property("")
  let email = Property("")
  let agreed = Property(false)
  let submitTapped = ObservableEvent<Void>()
  var canSubmit = false
  var submitted: [String] = []
  var attempts: [Int] = []
  var edits: [String] = []
  let bag = DisposeBag()

  init() {
    [name, email].combineLatest().combineLatest(agreed)
      .map { fields, agreed in agreed && fields.allSatisfy { !$0.isEmpty } }
      .observe { [weak self] in self?.canSubmit = $0 }.disposed(by: bag)
    submitTapped.withLatestFrom(email).observe { [weak self] in self?.submitted.append($0) }.disposed(by: bag)
    submitTapped.scan(0) { count, _ in count + 1 }.observe { [weak self] in self?.attempts.append($0) }.disposed(by: bag)
    name.pairwise().observe { [weak self] old, new in self?.edits.append("\(old)→\(new)") }.disposed(by: bag)
  }
}

/// The same form on the shared family: its state may be set from any domain.
final class SharedSignUpViewModel {
  var canSubmit = false
  var log: [String] = []
  let bag = DisposeBag()

  init(name: SharedProperty<String>, agreed: SharedProperty<Bool>, taps: SharedEvent<Void>, keys: SharedEvent<Void>) {
    name.combineLatest(agreed).map { !$0.isEmpty && $1 }
      .observe { [weak self] in self?.canSubmit = $0 }.disposed(by: bag)
    taps.merge(with: keys).skip(1).scan(0) { count, _ in count + 1 }
      .observe { [weak self] in self?.log.append("input \($0)") }.disposed(by: bag)
    taps.withLatestFrom(name).prepend("ready").observe { [weak self] in self?.log.append($0) }.disposed(by: bag)
  }
}

func signUpForms() {
  let form = SignUpViewModel()
  form.name.value = "Ada"
  form.email.value = "ada@example.com"
  print("form before agreeing: canSubmit \(form.canSubmit)")
  form.agreed.value = true
  form.submitTapped.notifyObservers()
  form.name.value = "Ada L."
  form.submitTapped.notifyObservers()
  print("form: canSubmit \(form.canSubmit), submitted \(form.submitted), attempts \(form.attempts), edits \(form.edits)")

  let name = SharedProperty("")
  let agreed = SharedProperty(false)
  let taps = SharedEvent<Void>()
  let keys = SharedEvent<Void>()
  let shared = SharedSignUpViewModel(name: name, agreed: agreed, taps: taps, keys: keys)
  name.value = "Grace"
  agreed.value = true
  keys.notifyObservers()
  taps.notifyObservers()
  print("shared form: canSubmit \(shared.canSubmit), log \(shared.log)")
}
