// The compatibility module: Flowduino Observable 2.x on top of ObservableKit.
@_exported import ObservableKit
